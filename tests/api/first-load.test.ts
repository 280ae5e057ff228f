import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fundraisers } from '../../server/db/schema';
import type { Fundraiser } from '../../shared/answers/fundraisers';
import { apiPaths } from '../../shared/api-paths';
import { imageSrcSet, pictureSizes } from '../../shared/constants';
import { useFakeClientBuild } from '../fixtures/fake-client-build';
import { createArtist, createFundraiser, uploadMusic } from '../fixtures/fundraisers';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// A page's first load (issue 13): the HTML of the pages people arrive on carries the API answers
// their first render reads, made by the app itself for this very caller, so the page draws without
// a round trip per answer and shows exactly what the API would have shown that caller.

const server = useTestServer({ CLIENT_DIST_DIR: useFakeClientBuild() });

/** What a page's HTML draws inside <main> before its app starts ('' for nothing). */
const mainOf = (html: string) => /<main id="main">(.*)<\/main>/s.exec(html)?.[1] ?? '';

async function firstAnswers(client: TestClient, path: string) {
  const page = await client.get(path);
  const script = /<script type="application\/json" id="first-answers">(.*?)<\/script>/s.exec(page.text)?.[1];
  return { page, answers: script === undefined ? {} : (JSON.parse(script) as Record<string, unknown>) };
}

describe("a page's first answers", () => {
  it('are the API answers of the fundraiser page, for this caller', async () => {
    const owner = await verifiedUser(server, 'first-owner@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, details: { name: 'First Light' } });
    const slug = fundraiser.urlSlug!;
    const path = apiPaths.fundraiser(slug);

    const guest = server.client();
    const { page, answers } = await firstAnswers(guest, `/projects/${slug}`);
    expect(page.status).toBe(200);
    expect(Object.keys(answers).sort()).toEqual([apiPaths.site, path].sort());
    expect(answers[path]).toEqual((await guest.get(path)).json);
    expect(answers[path]).toMatchObject({ name: 'First Light', canManage: false });
    // The guest is not asked about: no session, no user answer.
    expect(answers[apiPaths.user]).toBeUndefined();

    const mine = await firstAnswers(owner, `/projects/${slug}`);
    expect(mine.answers[path]).toMatchObject({ canManage: true });
    expect(mine.answers[apiPaths.user]).toMatchObject({ email: 'first-owner@example.org' });
    // Personal answers: no shared cache may keep the page.
    expect(mine.page.headers.get('cache-control')).toBe('private, no-cache');
  });

  it('answer the home page and browse, whose lists the page reads first', async () => {
    const owner = await verifiedUser(server, 'lists@example.org');
    await createFundraiser(owner, { publish: true, details: { name: 'Listed Album' } });
    const home = await firstAnswers(server.client(), '/');
    expect(home.page.status).toBe(200);
    expect(home.answers[apiPaths.featuredFundraisers]).toEqual(
      (await server.client().get(apiPaths.featuredFundraisers)).json,
    );
    expect(home.answers[apiPaths.featuredCharities]).toBeDefined();

    const browse = await firstAnswers(server.client(), '/browse/projects?searchTerm=%20Listed%20&page=0');
    const searchPath = apiPaths.fundraiserSearch({ searchTerm: 'Listed', genre: '', charityEin: '', page: 0 });
    expect(browse.answers[searchPath]).toMatchObject({ totalCount: 1 });
    expect(Object.keys(browse.answers)).toContain(searchPath);
  });

  it('give the donate pages the payment set-up, so the form knows its card at once', async () => {
    const owner = await verifiedUser(server, 'donate-first@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true, details: { name: 'Given Config' } });
    const config = (await server.client().get(apiPaths.paymentConfig)).json;
    expect(config).toMatchObject({ provider: 'test' });
    for (const path of [`/projects/${fundraiser.urlSlug!}/donate`, '/support/donate']) {
      const { answers } = await firstAnswers(server.client(), path);
      expect(answers[apiPaths.paymentConfig]).toEqual(config);
    }
    // The fundraiser page itself takes no payment: it is not given the set-up.
    const { answers } = await firstAnswers(server.client(), `/projects/${fundraiser.urlSlug!}`);
    expect(answers[apiPaths.paymentConfig]).toBeUndefined();
  });

  it('leave out what the caller may not see, so the page asks and shows the refusal itself', async () => {
    const owner = await verifiedUser(server, 'drafts@example.org');
    const draft = await createFundraiser(owner, { details: { name: 'Still a Draft' } });
    const { answers } = await firstAnswers(server.client(), `/projects/${draft.id}`);
    expect(Object.keys(answers)).toEqual([apiPaths.site]);
    // Its owner gets it, and an admin too.
    expect(
      (await firstAnswers(owner, `/projects/${draft.id}`)).answers[apiPaths.fundraiser(String(draft.id))],
    ).toMatchObject({
      name: 'Still a Draft',
    });
    const admin = await adminClient(server, 'first-admin@example.org');
    expect(
      (await firstAnswers(admin, `/projects/${draft.id}`)).answers[apiPaths.fundraiser(String(draft.id))],
    ).toBeDefined();
  });

  it('cannot end their script early, whatever a name holds', async () => {
    const owner = await verifiedUser(server, 'hostile@example.org');
    const name = '</script><script>alert(1)</script><!--';
    const fundraiser = await createFundraiser(owner, { publish: true, details: { name, description: 'x\u2028y' } });
    const { page, answers } = await firstAnswers(server.client(), `/projects/${fundraiser.urlSlug}`);
    expect(page.text).not.toContain('<script>alert(1)');
    // The app's entry, and the answers' own end.
    expect(page.text.match(/<\/script>/g)).toHaveLength(2);
    expect(answers[apiPaths.fundraiser(fundraiser.urlSlug!)]).toMatchObject({ name, description: 'x\u2028y' });
  });

  it('clear a session that ended elsewhere, so the page does not ask about it', async () => {
    const user = await verifiedUser(server, 'ended@example.org');
    // The session ends (a logout, a password change elsewhere), and its cookie comes back later.
    const stale = user.cookieHeader();
    await user.post('/api/logout');
    const page = await fetch(`${server.baseUrl}/`, { headers: { cookie: stale } });
    const html = await page.text();
    expect(html).not.toContain('"/api/user"');
    const cleared = page.headers.getSetCookie();
    expect(
      cleared.some((cookie) => /^soundcause_session=;/.test(cookie) || /soundcause_session=.*max-age=0/i.test(cookie)),
    ).toBe(true);
  });

  it('draw the top of an album in Your music before the app starts, for whoever may open it', async () => {
    const owner = await verifiedUser(server, 'drawn-first@example.org');
    const artist = await createArtist(owner, { name: 'Ampersand & <Co>' });
    const name = 'Songs "for" <b>you</b>';
    const album = await createFundraiser(owner, { artistId: artist.id, publish: true, details: { name } });
    const albumPage = `/music/album/${album.urlSlug!}?from=user&page=2`;

    const { page, answers } = await firstAnswers(owner, albumPage);
    const detail = answers[apiPaths.libraryAlbum(album.urlSlug!)] as { image: string };
    const main = mainOf(page.text);
    // The app's own markup, names escaped: nothing typed becomes markup.
    expect(main).toContain('<h1>Songs &#34;for&#34; &#60;b&#62;you&#60;/b&#62;</h1>');
    expect(main).toContain(`<a href="/artists/${artist.urlSlug}">Ampersand &#38; &#60;Co&#62;</a>`);
    expect(main).toContain(
      `<img src="${detail.image}" alt="Album cover of Songs &#34;for&#34; &#60;b&#62;you&#60;/b&#62;"`,
    );
    expect(main).toContain('<a href="/music/albums/user?page=2">');
    expect(main).toContain(`<a class="button button-secondary" href="/projects/${album.urlSlug}">View fundraiser</a>`);
    expect(main).not.toContain('<b>');
    // Its picture is asked for first (once the viewport is set), before the scripts, which come after it.
    expect(page.text).toMatch(
      new RegExp(
        `<meta name="viewport" [^>]*>\\s*<link rel="preload" as="image" fetchpriority="high" href="${detail.image}">`,
      ),
    );
    expect(page.text).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index-test.js">');
    expect(page.text).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/runtime-test.js">',
    );
    // Its rules come with it, under the answer's nonce like every inline style.
    const nonce = /style-src[^;]*'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeDefined();
    expect(page.text).toContain(`<style nonce="${nonce}">.first-view{`);

    // Nobody else's page holds it: a stranger and a guest are refused the album, and their page
    // is the app's, scripts first as on every other page.
    for (const caller of [await verifiedUser(server, 'stranger@example.org'), server.client()]) {
      const other = await caller.get(albumPage);
      expect(other.status).toBe(200);
      expect(other.text).toContain('<main id="main"></main>');
      expect(other.text).not.toContain('Songs &#34;for&#34;');
      expect(other.text).toContain('<script type="module" crossorigin src="/assets/index-test.js">');
    }

    // Without a cover there is no picture to wait for: the app draws the page, placeholder and all.
    const bare = await createFundraiser(owner, { artistId: artist.id, publish: true, details: { name: 'No Cover' } });
    server.db.update(fundraisers).set({ albumCoverId: null }).where(eq(fundraisers.id, bare.id)).run();
    const bareAnswers = await firstAnswers(owner, `/music/album/${bare.urlSlug!}`);
    expect(bareAnswers.answers[apiPaths.libraryAlbum(bare.urlSlug!)]).toBeDefined();
    expect(bareAnswers.page.text).toContain('<main id="main"></main>');
  });

  it('draw the top of browse and its first tiles before the app starts, for the list a visitor lands on', async () => {
    const owner = await verifiedUser(server, 'browse-first@example.org');
    const artist = await createArtist(owner, { name: 'Ampersand & <Sons>', description: 'Loud "and" <i>proud</i>.' });
    const uploads = await uploadMusic(owner, 1);
    const made: Fundraiser[] = [];
    for (const name of ['Oldest Drawn', 'Second Drawn', 'Third Drawn', 'Night "&" <b>Day</b>'])
      made.push(await createFundraiser(owner, { artistId: artist.id, uploads, publish: true, details: { name } }));
    const newest = made.at(-1)!;
    for (const path of ['/browse', '/browse/projects', '/browse/projects?page=0&genre=NotAGenre&utm_source=x']) {
      const page = await server.client().get(path);
      const main = mainOf(page.text);
      expect(main).toContain('<h1>Browse artists &amp; fundraisers</h1>');
      expect(main).toContain('<a class="tab" href="/browse/projects" aria-current="page">Search fundraisers</a>');
      expect(main).toContain('<h2 id="first-view-results">Recent fundraisers</h2>');
      // The newest four, newest first, each a real link to its page, every name escaped.
      const tiles = [...main.matchAll(/<a class="tile-link" href="([^"]*)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]]);
      expect(tiles).toEqual([
        [`/projects/${newest.urlSlug}`, 'Night &#34;&#38;&#34; &#60;b&#62;Day&#60;/b&#62;'],
        ...['Third Drawn', 'Second Drawn', 'Oldest Drawn'].map((name, i) => [
          `/projects/${made[2 - i]!.urlSlug}`,
          name,
        ]),
      ]);
      expect(main).toContain('<p class="fundraiser-tile-artist">Ampersand &#38; &#60;Sons&#62;</p>');
      expect(main).not.toContain('<b>');
      // The cover in the app's renditions: the first asked for first, the first screen's eagerly.
      const cover = newest.albumCover!;
      expect(main).toContain(
        `<source type="image/webp" srcset="${imageSrcSet(cover, 'webp')}" sizes="${pictureSizes.fundraiserTile}">`,
      );
      expect(main.match(/fetchpriority="high"/g)).toHaveLength(1);
      expect(main.match(/loading="eager"/g)).toHaveLength(4);
      expect(main).toMatch(/<img [^>]*fetchpriority="high"/);
      // That picture's preload comes first in <head> once the viewport is set, before the scripts.
      expect(page.text).toMatch(
        new RegExp(
          `<meta name="viewport" [^>]*>\\s*<link rel="preload" as="image" type="image/webp" fetchpriority="high" imagesrcset="${imageSrcSet(cover, 'webp')}" imagesizes="${pictureSizes.fundraiserTile.replace(/[()]/g, '\\$&')}">`,
        ),
      );
      expect(page.text.match(/rel="preload" as="image"/g)).toHaveLength(1);
      expect(page.text).toContain('<script type="module" fetchpriority="low" crossorigin src="/assets/index-test.js">');
      const nonce = /style-src[^;]*'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
      expect(page.text).toContain(`<style nonce="${nonce}">.first-view{`);
      // The test server's promo is no public fundraiser: no column is held for it.
      expect(main).toMatch(/^<div class="first-view"><div class="page stack">/);
    }

    // The artists' tab: their tiles, names and descriptions escaped, each leading to its page.
    const artists = mainOf((await server.client().get('/browse/artists')).text);
    expect(artists).toContain('<a class="tab" href="/browse/artists" aria-current="page">Search artists</a>');
    expect(artists).toContain('<h2 id="first-view-results">Recent artists</h2>');
    expect(artists).toContain(
      `<a class="tile-link" href="/artists/${artist.urlSlug}">Ampersand &#38; &#60;Sons&#62;</a>`,
    );
    expect(artists).toContain(
      '<p class="artist-tile-description">Loud &#34;and&#34; &#60;i&#62;proud&#60;/i&#62;.</p>',
    );
    expect(artists.match(/<article class="card tile artist-tile">/g)).toHaveLength(4);
    expect(artists).not.toContain('fundraiser-tile');

    // A search has its own heading (its count of matches) and is drawn by the app; an empty page
    // of results has no picture to wait for. Either way, nothing is drawn first, and the preload
    // stays with the page's other tags, the scripts at their own priority.
    for (const path of ['/browse/projects?searchTerm=Drawn', '/browse/artists?searchTerm=Ampersand']) {
      const page = await server.client().get(path);
      expect(page.text).toContain('<main id="main"></main>');
      expect(page.text).toMatch(/<\/title>[\s\S]*<link rel="preload" as="image" type="image\/webp"/);
      expect(page.text).toContain('<script type="module" crossorigin src="/assets/index-test.js">');
    }
    for (const path of ['/browse/projects?page=99', '/browse/artists?page=99']) {
      const page = await server.client().get(path);
      expect(page.text).toContain('<main id="main"></main>');
      expect(page.text).not.toContain('rel="preload" as="image"');
    }
  });
});
