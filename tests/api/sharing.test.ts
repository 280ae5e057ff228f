import { describe, expect, it } from 'vitest';
import { fundraiserReachSchema, fundraiserSchema, type Fundraiser } from '../../shared/answers/fundraisers';
import { changeTracker } from '../../server/db/client';
import { donate } from '../fixtures/donations';
import { useFakeClientBuild } from '../fixtures/fake-client-build';
import { createArtist, createFundraiser } from '../fixtures/fundraisers';
import { rawRequest, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// Issue 28 (DESIGN.md wave 3, "embeds" and "shares"): the embedded player's page and who may
// frame it, oEmbed, the share counter, and what the embeds bring, through real HTTP on a real
// SQLite file.

const SITE = 'https://music.example.org';
const server = useTestServer({ CLIENT_DIST_DIR: useFakeClientBuild(), PUBLIC_URL: SITE });

/**
 * The count of changes to public pages, what empties the cached ones (db/cache.ts): this
 * process's own, and the file's (read afresh here: the tracker reads it at most every 200 ms, so a
 * write just before `before` could show up only in `after`).
 */
const publicVersion = () => [
  changeTracker(server.deps.db)!.version('public')[0],
  server.sqlite.prepare("select version from change_versions where scope = 'public'").pluck().get(),
];

const frameAncestors = (csp: string | null) => /frame-ancestors ([^;]+)/.exec(csp ?? '')?.[1];

async function published(owner: TestClient, details: Record<string, string> = {}): Promise<Fundraiser> {
  return createFundraiser(owner, { publish: true, details });
}

async function reachOf(client: TestClient, id: number) {
  const answer = await client.get(`/api/fundraisers/${id}/reach`);
  expect(answer.status, answer.text).toBe(200);
  return fundraiserReachSchema.parse(answer.json);
}

describe('the embed page', () => {
  it('draws the player for any site to frame, and only there', async () => {
    const owner = await verifiedUser(server, 'embedder@example.org');
    const fundraiser = await published(owner, { name: 'Songs <for> "Rain"' });
    const page = await server.client().get(`/embed/fundraisers/${fundraiser.urlSlug}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(frameAncestors(page.headers.get('content-security-policy'))).toBe('*');
    expect(page.headers.get('x-frame-options')).toBeNull();
    // Its own script and styles, nothing inline: the same policy as the app's otherwise.
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.text).toContain('<script type="module" src="/assets/embed-test.js"></script>');
    expect(page.text).toContain('<link rel="stylesheet" href="/assets/embed-test.css">');
    expect(page.text).not.toMatch(/<script>|style="/);
    expect(page.headers.get('cache-control')).toBe('public, max-age=60');
    // The names, escaped; the charity; the goal; the previews; Donate in a new tab, marked as from the embed.
    expect(page.text).toContain('Songs &#60;for&#62; &#34;Rain&#34;');
    expect(page.text).toContain('American National Red Cross');
    expect(page.text).toContain('$0.00 raised of a $1,000.00 goal');
    expect(page.text).toContain(
      `<a class="embed-donate" href="/projects/${fundraiser.urlSlug}/donate?source=embed" target="_blank" rel="noopener">`,
    );
    expect(page.text).toContain(`<link rel="canonical" href="${SITE}/projects/${fundraiser.urlSlug}">`);
    // Before its tracks are processed, the album's own preview plays; then each track's.
    const dataOf = (html: string) =>
      JSON.parse(/<script type="application\/json" id="embed-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(dataOf(page.text).tracks).toEqual([{ name: 'Preview', src: `/api/fundraisers/${fundraiser.id}/preview` }]);
    server.sqlite
      .prepare(
        "update fundraiser_tracks set status = 'ready', preview_file = 'preview-' || id || '.mp3' where fundraiser_id = ?",
      )
      .run(fundraiser.id);
    await new Promise((resolve) => setTimeout(resolve, 250)); // another connection's write: seen within 200 ms
    const ready = fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${fundraiser.id}`)).json);
    const full = await server.client().get(`/embed/fundraisers/${fundraiser.urlSlug}`);
    expect(full.text).toContain('class="embed-tracks"');
    const tracks = dataOf(full.text).tracks;
    expect(tracks.map((track: { name: string }) => track.name)).toEqual(['Track 1', 'Track 2']);
    expect(tracks).toEqual(ready.tracksList.map((track) => ({ name: track.name, src: track.previewPath })));
    // Full by default (the previews listed), compact on request (one row).
    expect(page.text).toContain('class="embed-light embed-full"');
    expect(page.text).not.toContain('class="embed-tracks"'); // one preview: no list
    const compact = await server.client().get(`/embed/fundraisers/${fundraiser.urlSlug}?size=compact&theme=dark`);
    expect(compact.text).toContain('class="embed-dark embed-compact"');
    expect(compact.text).not.toContain('class="embed-tracks"');
    // Nonsense in the query is the default, never an error.
    const odd = await server.client().get(`/embed/fundraisers/${fundraiser.urlSlug}?size=<huge>&theme=neon`);
    expect(odd.text).toContain('class="embed-light embed-full"');

    // Every other page and answer keeps refusing frames.
    for (const pathname of ['/', `/projects/${fundraiser.urlSlug}`, '/browse', '/api/health']) {
      const other = await server.client().get(pathname);
      expect(frameAncestors(other.headers.get('content-security-policy')), pathname).toBe("'none'");
      if (!pathname.startsWith('/api')) expect(other.headers.get('x-frame-options'), pathname).toBe('DENY');
    }
  });

  it('keeps a name that would close the data block inside it', async () => {
    const owner = await verifiedUser(server, 'closer@example.org');
    const fundraiser = await published(owner, { name: '</script><script>alert(1)</script>' });
    const page = await server.client().get(`/embed/fundraisers/${fundraiser.urlSlug}`);
    expect(page.text).not.toContain('<script>alert(1)');
    const block = /<script type="application\/json" id="embed-data">(.*?)<\/script>/s.exec(page.text)![1]!;
    expect(JSON.parse(block).title).toBe('</script><script>alert(1)</script>');
  });

  it('shows nothing of a draft or an unknown fundraiser, in a page a frame can show', async () => {
    const owner = await verifiedUser(server, 'hidden@example.org');
    const draft = await createFundraiser(owner);
    for (const slug of [draft.urlSlug, 'no-such-fundraiser', '%E0%A4%A']) {
      const page = await owner.get(`/embed/fundraisers/${slug}`);
      expect(page.status, slug).toBe(404);
      expect(page.text).toContain('This fundraiser is not available.');
      expect(page.text).not.toContain(draft.name);
      expect(frameAncestors(page.headers.get('content-security-policy'))).toBe('*');
    }
  });

  it('follows a renamed fundraiser from its former address', async () => {
    const owner = await verifiedUser(server, 'renamer@example.org');
    const fundraiser = await published(owner);
    const formerSlug = fundraiser.urlSlug!;
    server.sqlite
      .prepare('insert into fundraiser_slug_history (fundraiser_id, slug) values (?, ?)')
      .run(fundraiser.id, `${formerSlug}-old`);
    const page = await server.client().get(`/embed/fundraisers/${formerSlug}-old`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<link rel="canonical" href="${SITE}/projects/${formerSlug}">`);
  });
});

describe('oEmbed', () => {
  const oembed = (query: Record<string, string>) => server.client().get(`/api/oembed?${new URLSearchParams(query)}`);

  it('answers a fundraiser page with its player', async () => {
    const owner = await verifiedUser(server, 'oembed@example.org');
    const fundraiser = await published(owner, { name: 'Quiet Rooms' });
    const answer = await oembed({ url: `${SITE}/projects/${fundraiser.urlSlug}`, format: 'json' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.json).toEqual({
      version: '1.0',
      type: 'rich',
      provider_name: 'Soundcause',
      provider_url: `${SITE}/`,
      title: 'Quiet Rooms by The Test Band',
      author_name: 'The Test Band',
      author_url: `${SITE}/artists/${fundraiser.artist.urlSlug}`,
      html: expect.stringContaining(`<iframe src="${SITE}/embed/fundraisers/${fundraiser.urlSlug}"`),
      width: 480,
      height: 460,
      thumbnail_url: `${SITE}/media/images/${fundraiser.albumCover}-400.jpg`,
      thumbnail_width: 400,
      thumbnail_height: 400,
      cache_age: 3600,
    });
    const html = (answer.json as { html: string }).html;
    expect(html).toContain('title="Quiet Rooms by The Test Band on Soundcause"');
    expect(html).toContain('width="480" height="460"');
    // The donate page and the player's own address say the same.
    for (const url of [
      `${SITE}/projects/${fundraiser.urlSlug}/donate`,
      `${SITE}/embed/fundraisers/${fundraiser.urlSlug}`,
    ]) {
      expect((await oembed({ url })).json).toMatchObject({ title: 'Quiet Rooms by The Test Band' });
    }
  });

  it('fits the frame within maxwidth and maxheight', async () => {
    const owner = await verifiedUser(server, 'sizes@example.org');
    const fundraiser = await published(owner);
    const url = `${SITE}/projects/${fundraiser.urlSlug}`;
    const cases: [Record<string, string>, number, number, string][] = [
      [{ maxwidth: '1000', maxheight: '1000' }, 480, 460, ''],
      [{ maxwidth: '320' }, 320, 460, ''],
      [{ maxheight: '459' }, 480, 120, '?size=compact'],
      [{ maxwidth: '200', maxheight: '90' }, 200, 90, '?size=compact'],
    ];
    for (const [limits, width, height, query] of cases) {
      const answer = await oembed({ url, ...limits });
      expect(answer.status).toBe(200);
      const body = answer.json as { width: number; height: number; html: string };
      expect([body.width, body.height], JSON.stringify(limits)).toEqual([width, height]);
      expect(body.width).toBeLessThanOrEqual(Number(limits.maxwidth ?? Infinity));
      expect(body.height).toBeLessThanOrEqual(Number(limits.maxheight ?? Infinity));
      expect(body.html).toContain(`/embed/fundraisers/${fundraiser.urlSlug}${query}"`);
      expect(body.html).toContain(`width="${width}" height="${height}"`);
    }
  });

  it("answers an artist's page with their newest published fundraiser", async () => {
    const owner = await verifiedUser(server, 'newest@example.org');
    const artist = await createArtist(owner, { name: 'Two Albums' });
    await createFundraiser(owner, { artistId: artist.id, publish: true, details: { name: 'First Album' } });
    // The newest published one, not a newer draft.
    server.sqlite
      .prepare("update fundraisers set published_at = published_at - 60000 where name = 'First Album'")
      .run();
    await createFundraiser(owner, { artistId: artist.id, publish: true, details: { name: 'Second Album' } });
    await createFundraiser(owner, { artistId: artist.id, details: { name: 'Draft Album' } });
    const answer = await oembed({ url: `${SITE}/artists/${artist.urlSlug}` });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ title: 'Second Album by Two Albums', author_name: 'Two Albums' });
  });

  it('refuses what it cannot answer', async () => {
    const owner = await verifiedUser(server, 'refused@example.org');
    const fundraiser = await published(owner);
    const draft = await createFundraiser(owner);
    const lonely = await createArtist(owner, { name: 'No Albums Yet' });
    for (const url of [
      `${SITE}/projects/${draft.urlSlug}`,
      `${SITE}/projects/no-such-fundraiser`,
      `https://elsewhere.example/projects/${fundraiser.urlSlug}`,
      `${SITE}/browse`,
      `${SITE}/artists/${lonely.urlSlug}`,
      'not a url',
    ]) {
      const answer = await oembed({ url });
      expect(answer.status, url).toBe(404);
    }
    expect((await oembed({ url: `${SITE}/projects/${fundraiser.urlSlug}`, format: 'xml' })).status).toBe(501);
    expect((await oembed({})).status).toBe(400);
    const wide = await oembed({ url: `${SITE}/projects/${fundraiser.urlSlug}`, maxwidth: 'wide' });
    expect(wide.status).toBe(400);
    expect(wide.json).toEqual({
      formErrors: [{ field: 'maxwidth', message: 'maxwidth must be a whole number of pixels.', code: 'custom' }],
    });
    expect((await oembed({ url: '' })).json).toEqual({
      formErrors: [{ field: 'url', message: 'The url parameter is required.', code: 'too_small' }],
    });
  });

  it("is found from the fundraiser's page, beside its player card", async () => {
    const owner = await verifiedUser(server, 'discovery@example.org');
    const fundraiser = await published(owner);
    const page = await server.client().get(`/projects/${fundraiser.urlSlug}`);
    const pageUrl = `${SITE}/projects/${fundraiser.urlSlug}`;
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page.text)?.[1];
    expect(link?.replaceAll('&#38;', '&')).toBe(
      `${SITE}/api/oembed?${new URLSearchParams({ url: pageUrl, format: 'json' })}`,
    );
    expect(page.text).toContain('<meta name="twitter:card" content="player" />');
    expect(page.text).toContain(
      `<meta name="twitter:player" content="${SITE}/embed/fundraisers/${fundraiser.urlSlug}" />`,
    );
    expect(page.text).toContain('<meta name="twitter:player:height" content="460" />');
    // What the link names answers.
    const answer = await server.client().get(link!.replaceAll('&#38;', '&').slice(SITE.length));
    expect(answer.status).toBe(200);
  });
});

describe('the share counter', () => {
  it('counts a visitor once per fundraiser per hour, and tells the owner', async () => {
    const owner = await verifiedUser(server, 'counted@example.org');
    const fundraiser = await published(owner);
    const other = await published(owner);
    const visitor = server.client('10.77.0.1');
    const share = (client: TestClient, id = fundraiser.id, headers: Record<string, string> = {}) =>
      client.post(`/api/fundraisers/${id}/shares`, { headers });

    expect((await share(visitor)).json).toEqual({ shareCount: 1 });
    // The same visitor again (a second copy of the link, the embed code): the same count.
    expect((await share(visitor)).json).toEqual({ shareCount: 1 });
    // Another fundraiser is counted on its own.
    expect((await share(visitor, other.id)).json).toEqual({ shareCount: 1 });
    // Another browser on the same address, another address: other visitors.
    expect((await share(visitor, fundraiser.id, { 'user-agent': 'Another browser' })).json).toEqual({ shareCount: 2 });
    expect((await share(server.client('10.77.0.2'))).json).toEqual({ shareCount: 3 });
    // A signed-in sharer is one visitor wherever they are.
    expect((await share(owner)).json).toEqual({ shareCount: 4 });
    expect((await share(owner, fundraiser.id, { 'x-forwarded-for': '10.77.0.9' })).json).toEqual({ shareCount: 4 });

    // An hour on, the first visitor counts again.
    server.sqlite.prepare("update throttle_events set at = at - 3600001 where bucket = 'share'").run();
    expect((await share(visitor)).json).toEqual({ shareCount: 5 });

    // The owner's reach says so at once. A share empties no cached page (a counter anyone may
    // post to must not), so the public JSON catches up with the next change to a public page.
    expect(await reachOf(owner, fundraiser.id)).toMatchObject({ shareCount: 5 });
    const before = publicVersion();
    expect((await share(server.client('10.77.0.3'))).json).toEqual({ shareCount: 6 });
    expect(publicVersion()).toEqual(before);
    await published(owner); // a public change
    const json = fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(json.shareCount).toBe(6);
    // Nothing that names a visitor is kept: the throttle's keys are hashes.
    const keys = server.sqlite.prepare("select key from throttle_events where bucket = 'share'").all() as {
      key: string;
    }[];
    for (const { key } of keys) expect(key).toMatch(/^\d+:[\w-]{22}$/);
  });

  it('counts a network a few times at most, however many browsers it names', async () => {
    const owner = await verifiedUser(server, 'rotated@example.org');
    const fundraiser = await published(owner);
    const network = server.client('10.88.0.1');
    let last = 0;
    for (let i = 0; i < 25; i++) {
      const answer = await network.post(`/api/fundraisers/${fundraiser.id}/shares`, {
        headers: { 'user-agent': `Browser ${i}` },
      });
      last = (answer.json as { shareCount: number }).shareCount;
    }
    expect(last).toBe(20);
    // Another network still counts.
    const other = await server.client('10.88.0.2').post(`/api/fundraisers/${fundraiser.id}/shares`);
    expect(other.json).toEqual({ shareCount: 21 });
  });

  it('refuses drafts and fundraisers that do not exist', async () => {
    const owner = await verifiedUser(server, 'nodraft@example.org');
    const draft = await createFundraiser(owner);
    for (const id of [draft.id, 999_999, 'abc']) {
      const answer = await owner.post(`/api/fundraisers/${id}/shares`);
      expect(answer.status, String(id)).toBe(404);
    }
    expect(fundraiserSchema.parse((await owner.get(`/api/fundraisers/${draft.id}`)).json).shareCount).toBe(0);
  });
});

describe('what the embeds bring', () => {
  it('counts views, plays and donations that began in an embed, for the owner only', async () => {
    const owner = await verifiedUser(server, 'reach@example.org');
    const fundraiser = await published(owner);
    const event = (kind: string, id = fundraiser.id, headers: Record<string, string> = {}) =>
      server.client().post(`/api/fundraisers/${id}/embed-events?kind=${kind}`, { headers });
    // From a frame on another site, a sandboxed one too (WordPress's, whose origin is "null").
    expect((await event('view', fundraiser.id, { origin: 'https://someones-blog.example' })).status).toBe(204);
    expect((await event('view', fundraiser.id, { origin: 'null', 'sec-fetch-site': 'cross-site' })).status).toBe(204);
    expect((await event('play')).status).toBe(204);
    // A count empties no cached page.
    const before = publicVersion();
    expect((await event('play')).status).toBe(204);
    expect(publicVersion()).toEqual(before);
    expect((await event('download')).status).toBe(400);
    const draft = await createFundraiser(owner);
    expect((await event('view', draft.id)).status).toBe(404);

    await donate(server, {
      fundraiserId: fundraiser.id,
      email: 'from-embed@example.org',
      donationCents: 1500,
      source: 'embed',
    });
    await donate(server, { fundraiserId: fundraiser.id, email: 'direct@example.org', donationCents: 2000 });
    // A source the server does not know is no source, never a refused donation.
    await donate(server, {
      fundraiserId: fundraiser.id,
      email: 'odd@example.org',
      donationCents: 700,
      source: 'banner',
    });

    expect(await reachOf(owner, fundraiser.id)).toEqual({
      shareCount: 0,
      embedViews: 2,
      embedPlays: 2,
      embedDonations: 1,
      embedRaisedCents: 1500,
    });
    const sources = server.sqlite
      .prepare('select email, source from donations where fundraiser_id = ? order by id')
      .all(fundraiser.id);
    expect(sources).toEqual([
      { email: 'from-embed@example.org', source: 'embed' },
      { email: 'direct@example.org', source: null },
      { email: 'odd@example.org', source: null },
    ]);

    // Others may not look.
    expect((await server.client().get(`/api/fundraisers/${fundraiser.id}/reach`)).status).toBe(401);
    const stranger = await verifiedUser(server, 'stranger@example.org');
    expect((await stranger.get(`/api/fundraisers/${fundraiser.id}/reach`)).status).toBe(403);
    expect((await stranger.get(`/api/fundraisers/${draft.id}/reach`)).status).toBe(404);
  });
});

describe('the embed page over time', () => {
  it('shows a donation at once, and nothing once the fundraiser is gone', async () => {
    const owner = await verifiedUser(server, 'timeline@example.org');
    const fundraiser = await published(owner);
    const path = `/embed/fundraisers/${fundraiser.urlSlug}`;
    expect((await server.client().get(path)).text).toContain('$0.00 raised of a $1,000.00 goal');
    await donate(server, { fundraiserId: fundraiser.id, email: 'timeline-fan@example.org', donationCents: 2500 });
    expect((await server.client().get(path)).text).toContain('$25.00 raised of a $1,000.00 goal');
    expect((await owner.delete(`/api/fundraisers/${fundraiser.id}`)).status).toBe(200);
    const gone = await server.client().get(path);
    expect(gone.status).toBe(404);
    expect(gone.text).toContain('This fundraiser is not available.');
  });
});

describe("the site's address in what others keep", () => {
  // PUBLIC_URL as an operator may write it: the discovery link it makes must answer.
  const written = useTestServer({ CLIENT_DIST_DIR: useFakeClientBuild(), PUBLIC_URL: 'https://Music.Example.org:443' });
  // No PUBLIC_URL (development): a made-up Host header never reaches an answer a cache keeps.
  const bare = useTestServer({ CLIENT_DIST_DIR: useFakeClientBuild() });

  it('reads PUBLIC_URL as an origin, however it is written', async () => {
    const owner = await verifiedUser(written, 'written@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true });
    const page = await written.client().get(`/projects/${fundraiser.urlSlug}`);
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(page.text)![1]!;
    const answer = await written
      .client()
      .get(new URL(link.replaceAll('&#38;', '&')).pathname + new URL(link.replaceAll('&#38;', '&')).search);
    expect(answer.status, answer.text).toBe(200);
    expect((answer.json as { html: string }).html).toContain(
      `src="https://music.example.org/embed/fundraisers/${fundraiser.urlSlug}"`,
    );
  });

  it('names this machine, never the Host a caller sent', async () => {
    const owner = await verifiedUser(bare, 'bare@example.org');
    const fundraiser = await createFundraiser(owner, { publish: true });
    const forged = { host: 'evil.example' };
    const url = `http://evil.example/projects/${fundraiser.urlSlug}`;
    const asked = (path: string) => rawRequest(bare.baseUrl, { method: 'GET', path, headers: forged });
    // The forged address is not this site's, whatever the Host said.
    expect((await asked(`/api/oembed?${new URLSearchParams({ url })}`)).status).toBe(404);
    const player = await asked(`/embed/fundraisers/${fundraiser.urlSlug}`);
    expect(player.status).toBe(200);
    expect(player.text).not.toContain('evil.example');
  });
});
