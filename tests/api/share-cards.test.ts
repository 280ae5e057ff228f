import { describe, expect, it } from 'vitest';
import { useFakeClientBuild } from '../fixtures/fake-client-build';
import { createFundraiser } from '../fixtures/fundraisers';
import { verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Shared links of fundraisers and artists carry Open Graph and Twitter tags (issue 4), answered
// by the server in the app's own HTML.

const server = useTestServer({ CLIENT_DIST_DIR: useFakeClientBuild(), PUBLIC_URL: 'https://music.example.org' });

const meta = (html: string, key: string) =>
  html.match(new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`))?.[1];

describe('share cards', () => {
  it('describes a published fundraiser and its artist, by slug or id', async () => {
    const owner = await verifiedUser(server, 'sharer@example.org');
    const fundraiser = await createFundraiser(owner, {
      publish: true,
      details: { name: 'Songs & "Stories"', description: 'Live at the <Crystal> Ballroom.' },
    });
    const page = await server.client().get(`/projects/${fundraiser.urlSlug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root"><main id="main"></main></div>');
    expect(page.text).toContain('<title>Songs &#38; &#34;Stories&#34; by The Test Band | Soundcause</title>');
    expect(meta(page.text, 'og:title')).toBe('Songs &#38; &#34;Stories&#34; by The Test Band');
    expect(meta(page.text, 'og:description')).toContain('Live at the &#60;Crystal&#62; Ballroom.');
    expect(meta(page.text, 'og:image')).toBe(
      `https://music.example.org/media/images/${fundraiser.albumCover}-1200.jpg`,
    );
    expect(meta(page.text, 'og:url')).toBe(`https://music.example.org/projects/${fundraiser.urlSlug}`);
    // A player card (issue 28): the embedded player plays where the link unfurls.
    expect(meta(page.text, 'twitter:card')).toBe('player');
    expect(meta(page.text, 'twitter:player')).toBe(`https://music.example.org/embed/fundraisers/${fundraiser.urlSlug}`);
    expect(page.text).toMatch(/<meta\s+name="description"\s+content="Live at the/);
    // By id, the page moves to its slug, where the card is.
    const byId = await server.client().get(`/projects/${fundraiser.id}`);
    expect(byId.status).toBe(301);
    expect(byId.headers.get('location')).toBe(`/projects/${fundraiser.urlSlug}`);

    const artist = await server.client().get(`/artists/${fundraiser.artist.urlSlug}`);
    expect(meta(artist.text, 'og:title')).toBe('The Test Band');
    expect(meta(artist.text, 'og:image')).toMatch(/^https:\/\/music\.example\.org\/media\/images\/.+-1200\.jpg$/);
    // An artist's page has no player of its own; summary_large_image as before.
    expect(meta(artist.text, 'twitter:card')).toBe('summary_large_image');
  });

  it('keeps `$` patterns in names and descriptions as text', async () => {
    const owner = await verifiedUser(server, 'dollars@example.org');
    const fundraiser = await createFundraiser(owner, {
      publish: true,
      details: { name: "Pay $& and $' now", description: '0;url=https://evil.example/$2 http-equiv=refresh x' },
    });
    const page = await server.client().get(`/projects/${fundraiser.urlSlug}`);
    // (The page's first answers carry the description as JSON data: tests/api/first-load.test.ts.)
    const tags = page.text.replace(/<script type="application\/json" id="first-answers">.*?<\/script>/s, '');
    expect(tags).not.toContain('http-equiv=refresh x"');
    expect(page.text).toMatch(
      /<meta\s+name="description"\s+content="0;url=https:\/\/evil\.example\/\$2 http-equiv=refresh x/,
    );
    expect(meta(page.text, 'og:title')).toBe('Pay $&#38; and $&#39; now by The Test Band');
    expect(page.text.match(/<meta (property|name)=/g)?.length).toBe(14);
  });

  it('says nothing about drafts or unknown pages', async () => {
    const owner = await verifiedUser(server, 'drafter@example.org');
    const draft = await createFundraiser(owner);
    for (const [pathname, status] of [
      [`/projects/${draft.id}`, 200],
      [`/projects/${draft.urlSlug}`, 200],
      ['/projects/no-such-thing', 404],
      ['/artists/%E0%A4%A', 404],
      ['/browse', 200],
    ] as const) {
      const page = await server.client().get(pathname);
      expect(page.status, pathname).toBe(status);
      expect(meta(page.text, 'og:title')).toBeUndefined();
      expect(page.text).toContain('<title>Soundcause</title>');
    }
  });
});
