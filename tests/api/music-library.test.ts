import fs from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type LibraryAlbumDetail,
  libraryAlbumDetailSchema,
  libraryAlbumListSchema,
} from '../../shared/answers/library';
import { type Fundraiser } from '../../shared/answers/fundraisers';
import { donations, fundraisers, fundraiserTracks, purchases, uploads, users } from '../../server/db/schema';
import { cleanupUnusedUploads } from '../../server/features/uploads/service';
import { createArtist, createFundraiser, uploadMusic, uploadTrack } from '../fixtures/fundraisers';
import { adminClient, registerUser, type TestClient, verifiedUser } from '../fixtures/test-server';
import { donate, payWithTestCard, startDonation } from '../fixtures/donations';
import { TEST_CARDS } from '../../shared/donation-rules';
import { useTestServer } from '../fixtures/use-test-server';

// Your music (spec part 1 sections 2 and 7; DESIGN.md section 4, 'library album'): the user's own
// albums, purchases by verified email, the album with its streams, and the album zip for buyers.

const server = useTestServer();
let admin: TestClient;
beforeAll(async () => {
  admin = await adminClient(server);
});

let counter = 0;
const nextEmail = (label: string) => `${label}-${++counter}@example.org`;

/**
 * A donation through the payment flow: paid (the album is bought, `at` dates the purchase), or
 * declined and never paid.
 */
async function donateTo(
  fundraiserId: number,
  email: string,
  options: { status?: 'succeeded' | 'failed'; at?: Date } = {},
) {
  if (options.status === 'failed') {
    const intent = await startDonation(server, { fundraiserId, email });
    expect((await payWithTestCard(server, intent.clientSecret, TEST_CARDS.declined)).status).toBe(402);
    return;
  }
  const intent = await donate(server, { fundraiserId, email });
  if (options.at) {
    const donation = server.db
      .select()
      .from(donations)
      .where(eq(donations.paymentIntentId, intent.paymentIntentId))
      .get()!;
    server.db.update(purchases).set({ createdAt: options.at }).where(eq(purchases.donationId, donation.id)).run();
  }
}

async function list(client: TestClient, which: 'user' | 'purchases', page = 0) {
  const response = await client.get(`/api/music-library/${which}?page=${page}&pageSize=20`);
  expect(response.status).toBe(200);
  return libraryAlbumListSchema.parse(response.json);
}

async function album(client: TestClient, id: number): Promise<LibraryAlbumDetail> {
  const response = await client.get(`/api/music-library/album/${id}`);
  expect(response.status, response.text).toBe(200);
  return libraryAlbumDetailSchema.parse(response.json);
}

/** GET with the body as bytes (TestClient reads text, which would mangle audio and zips). */
async function getBytes(client: TestClient, pathname: string) {
  const cookie = client.cookieHeader();
  const response = await fetch(`${server.baseUrl}${pathname}`, { headers: cookie ? { cookie } : {} });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

function userId(email: string): number {
  return server.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get()!.id;
}

describe('GET /api/music-library/user', () => {
  it('pages the owner’s albums 20 at a time, newest first, drafts included', async () => {
    const email = nextEmail('prolific');
    const owner = await verifiedUser(server, email);
    const artist = await createArtist(owner, { name: 'Many Songs' });
    const shared = await uploadMusic(owner, 1);
    const created: number[] = [];
    for (let i = 0; i < 21; i++) {
      const fundraiser = await createFundraiser(owner, {
        artistId: artist.id,
        uploads: shared,
        details: { name: `Album ${i + 1}` },
        publish: i === 20,
      });
      created.push(fundraiser.id);
    }
    // Created a second apart, so "newest" is not decided by a tie.
    created.forEach((id, i) =>
      server.db
        .update(fundraisers)
        .set({ createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, i)) })
        .where(eq(fundraisers.id, id))
        .run(),
    );

    const first = await list(owner, 'user', 0);
    expect(first.totalCount).toBe(21);
    expect(first.results).toHaveLength(20);
    // The published one is dated by its publishing (now), the drafts by their creation.
    expect(first.results[0]).toMatchObject({ projectName: 'Album 21', artistName: 'Many Songs', artistId: artist.id });
    expect(Date.parse(first.results[0]!.date)).toBeGreaterThan(Date.UTC(2025, 0, 1));
    expect(first.results[1]).toMatchObject({ projectName: 'Album 20', date: '2024-01-01T00:00:19.000Z' });
    expect(first.results[1]!.image).toMatch(/^\/media\/images\/[^/]+-400\.jpg$/);
    expect(first.results[1]!.projectSlug).toBe('album-20');

    const second = await list(owner, 'user', 1);
    expect(second.totalCount).toBe(21);
    expect(second.results.map((item) => item.projectName)).toEqual(['Album 1']);

    // Someone else's list holds none of them.
    const other = await verifiedUser(server, nextEmail('other'));
    expect((await list(other, 'user')).totalCount).toBe(0);
  });

  it('uses the id as the album address of a draft without a slug, and leaves out deleted fundraisers', async () => {
    const owner = await verifiedUser(server, nextEmail('drafter'));
    const kept = await createFundraiser(owner);
    const gone = await createFundraiser(owner);
    server.db.update(fundraisers).set({ urlSlug: null }).where(eq(fundraisers.id, kept.id)).run();
    expect((await owner.delete(`/api/fundraisers/${gone.id}`)).status).toBe(200);

    const { results, totalCount } = await list(owner, 'user');
    expect(totalCount).toBe(1);
    expect(results.map((item) => [item.projectId, item.projectSlug])).toEqual([[kept.id, String(kept.id)]]);
    expect((await owner.get(`/api/music-library/album/${gone.id}`)).status).toBe(404);
  });

  it('is for logged-in users only', async () => {
    const guest = server.client();
    for (const path of ['/user', '/purchases', '/album/1', '/album/slug/anything']) {
      const response = await guest.get(`/api/music-library${path}`);
      expect(response.status, path).toBe(401);
    }
  });
});

describe('GET /api/music-library/album/{id}', () => {
  it('gives the owner the tracks in album order, streamable once processed', async () => {
    const owner = await verifiedUser(server, nextEmail('listener'));
    const artist = await createArtist(owner, { name: 'Quiet Riot Grrrl' });
    const fundraiser = await createFundraiser(owner, { artistId: artist.id, tracks: 2 });

    const before = await album(owner, fundraiser.id);
    expect(before.tracks.map((track) => [track.name, track.status, track.src])).toEqual([
      ['Track 1', 'processing', undefined],
      ['Track 2', 'processing', undefined],
    ]);

    await server.jobs.drain();
    const after = await album(owner, fundraiser.id);
    expect(after).toMatchObject({
      projectId: fundraiser.id,
      projectSlug: fundraiser.urlSlug,
      projectName: fundraiser.name,
      artistId: artist.id,
      artistName: 'Quiet Riot Grrrl',
      artistSlug: artist.urlSlug,
      hasV1Tracks: false,
      fundraiserDeleted: false,
      tracksZipLink: `/api/fundraisers/${fundraiser.id}/download`,
      image: fundraiser.image,
    });
    const streams = server.db
      .select({ id: fundraiserTracks.id, streamFile: fundraiserTracks.streamFile })
      .from(fundraiserTracks)
      .where(eq(fundraiserTracks.fundraiserId, fundraiser.id))
      .all();
    const versionOf = new Map(streams.map((row) => [row.id, row.streamFile!.replace(/\.mp3$/, '')]));
    expect(after.tracks.map((track) => track.index)).toEqual([0, 1]);
    for (const track of after.tracks) {
      expect(track.status).toBe('ready');
      expect(track.src).toBe(`/api/tracks/${track.id}/stream?v=${encodeURIComponent(versionOf.get(track.id)!)}`);
      expect(track.durationSeconds).toBe(1);
      expect(track.loudnessLufs).toBeLessThan(0);
    }

    // The page's address may be the slug.
    const bySlug = await owner.get(`/api/music-library/album/slug/${fundraiser.urlSlug}`);
    expect(libraryAlbumDetailSchema.parse(bySlug.json)).toEqual(after);
  });

  it('is 404 to other users (by id and by slug), open to admins', async () => {
    const owner = await verifiedUser(server, nextEmail('private'));
    const draft = await createFundraiser(owner);
    const published = await createFundraiser(owner, { publish: true });
    const stranger = await verifiedUser(server, nextEmail('stranger'));
    for (const fundraiser of [draft, published]) {
      expect((await stranger.get(`/api/music-library/album/${fundraiser.id}`)).status).toBe(404);
      expect((await stranger.get(`/api/music-library/album/slug/${fundraiser.urlSlug}`)).status).toBe(404);
      expect((await album(admin, fundraiser.id)).projectId).toBe(fundraiser.id);
    }
    expect((await stranger.get(`/api/music-library/album/999999`)).status).toBe(404);
    expect((await stranger.get(`/api/music-library/album/abc`)).status).toBe(404);
  });

  it('shows a legacy v1 album as names only, with its zip to download', async () => {
    const email = nextEmail('legacy');
    const owner = await verifiedUser(server, email);
    const fundraiser = await createFundraiser(owner, { publish: true });
    const zipId = 'legacy-album-zip';
    const zipBytes = Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(500, 3)]);
    fs.writeFileSync(server.media.zipFile(zipId), zipBytes);
    server.db
      .insert(uploads)
      .values({ id: zipId, userId: userId(email), kind: 'zip', format: 'zip', originalName: 'a.zip', bytes: 504 })
      .run();
    server.db
      .update(fundraisers)
      .set({ hasV1Tracks: true, tracksZipUploadId: zipId })
      .where(eq(fundraisers.id, fundraiser.id))
      .run();
    server.db
      .update(fundraiserTracks)
      .set({ uploadId: null, status: 'ready' })
      .where(eq(fundraiserTracks.fundraiserId, fundraiser.id))
      .run();

    const legacy = await album(owner, fundraiser.id);
    expect(legacy.hasV1Tracks).toBe(true);
    expect(legacy.tracksZipLink).toBe(`/api/fundraisers/${fundraiser.id}/download`);
    expect(legacy.tracks.map((track) => [track.name, track.src])).toEqual([
      ['Track 1', undefined],
      ['Track 2', undefined],
    ]);
    const download = await owner.get(legacy.tracksZipLink!);
    expect(download.status).toBe(200);

    // Without its zip there is nothing to download, and the album says so by having no link.
    server.db.update(fundraisers).set({ tracksZipUploadId: null }).where(eq(fundraisers.id, fundraiser.id)).run();
    expect((await album(owner, fundraiser.id)).tracksZipLink).toBeUndefined();
  });
});

describe('purchases', () => {
  it('lists albums bought with the verified email, one per album, latest purchase first', async () => {
    const seller = await verifiedUser(server, nextEmail('seller'));
    const artist = await createArtist(seller, { name: 'Sold Out' });
    const first = await createFundraiser(seller, { artistId: artist.id, publish: true, details: { name: 'First' } });
    const second = await createFundraiser(seller, { artistId: artist.id, publish: true, details: { name: 'Second' } });
    const notBought = await createFundraiser(seller, { artistId: artist.id, publish: true, details: { name: 'Not' } });
    await server.jobs.drain();

    const email = nextEmail('buyer');
    const buyer = await verifiedUser(server, email);
    // The address as typed at a checkout may differ in case from the account's.
    await donateTo(first.id, email.toUpperCase(), { at: new Date('2025-03-01T10:00:00Z') });
    await donateTo(second.id, email, { at: new Date('2025-04-01T10:00:00Z') });
    await donateTo(first.id, email, { at: new Date('2025-05-01T10:00:00Z') });
    await donateTo(notBought.id, email, { status: 'failed' });
    await donateTo(notBought.id, nextEmail('someone-else'));

    const purchases = await list(buyer, 'purchases');
    expect(purchases.totalCount).toBe(2);
    expect(purchases.results).toEqual([
      {
        projectId: first.id,
        projectSlug: first.urlSlug,
        artistId: artist.id,
        projectName: 'First',
        artistName: 'Sold Out',
        image: first.image,
        date: '2025-05-01T10:00:00.000Z',
      },
      expect.objectContaining({ projectId: second.id, date: '2025-04-01T10:00:00.000Z' }),
    ]);
    // Buying is not owning.
    expect((await list(buyer, 'user')).totalCount).toBe(0);

    const bought = await album(buyer, first.id);
    expect(bought.tracks.every((track) => track.src?.startsWith(`/api/tracks/${track.id}/stream?v=`))).toBe(true);
    const download = await fetch(`${server.baseUrl}${bought.tracksZipLink}`, {
      headers: { cookie: buyer.cookieHeader() },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await download.arrayBuffer());
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(zip.toString('latin1')).toContain('01 - Track 1.wav');

    // A failed payment buys nothing.
    expect((await buyer.get(`/api/music-library/album/${notBought.id}`)).status).toBe(404);
    expect((await buyer.get(`/api/fundraisers/${notBought.id}/download`)).status).toBe(403);

    // Bought music is the buyer's to keep: a deleted fundraiser stays in their purchases.
    expect((await seller.delete(`/api/fundraisers/${second.id}`)).status).toBe(200);
    const afterDelete = await list(buyer, 'purchases');
    expect(afterDelete.results.map((item) => item.projectId)).toEqual([first.id, second.id]);
    expect(afterDelete.totalCount).toBe(2);

    // An artist deleted with their fundraisers: the album stays, without a link to a page that is gone.
    expect((await album(buyer, first.id)).artistSlug).toBeTruthy();
    expect((await seller.delete(`/api/artists/${first.artistId}`)).status).toBe(200);
    const orphan = await album(buyer, first.id);
    expect(orphan).toMatchObject({ fundraiserDeleted: true, artistName: first.artist.name });
    expect(orphan.artistSlug).toBeUndefined();
    expect(orphan.tracks.every((track) => track.src)).toBe(true);
  });

  it('shows nothing to an account whose same email is not verified yet', async () => {
    const seller = await verifiedUser(server, nextEmail('seller'));
    const fundraiser = await createFundraiser(seller, { publish: true });
    const email = nextEmail('unverified');
    const unverified = server.client();
    await registerUser(unverified, email);
    await donateTo(fundraiser.id, email);

    expect(await list(unverified, 'purchases')).toEqual({ results: [], totalCount: 0 });
    expect((await unverified.get(`/api/music-library/album/${fundraiser.id}`)).status).toBe(404);
    expect((await unverified.get(`/api/fundraisers/${fundraiser.id}/download`)).status).toBe(403);

    // Once the address is proven, the purchase is theirs.
    const verified = await unverified.post('/api/verify-email', {
      json: { verificationCode: server.outbox.latestCode(email) },
    });
    expect(verified.status).toBe(200);
    expect((await list(unverified, 'purchases')).results.map((item) => item.projectId)).toEqual([fundraiser.id]);
    expect((await unverified.get(`/api/fundraisers/${fundraiser.id}/download`)).status).toBe(200);
  });

  it('finds a buyer’s donations through the email index', () => {
    // The purchases list's condition, written as hasBought (server/access/can-stream.ts) writes it.
    const query = server.db
      .select({ id: donations.id })
      .from(donations)
      .where(and(eq(sql`lower(${donations.email})`, 'x@example.org'), eq(donations.status, 'succeeded')))
      .toSQL();
    const plan = server.sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as { detail: string }[];
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING (COVERING )?INDEX donations_email_idx/);
  });
});

describe('a deleted fundraiser', () => {
  // The site promises fans "the music is theirs to keep" (footer): the owner deletes a published
  // fundraiser after a sale; its buyer (and admins, who support them) keep the full music, nobody
  // else does, and it has no public face left.
  let seller: TestClient;
  let buyer: TestClient;
  let stranger: TestClient;
  /** As its owner saw it before deleting it (with the upload ids). */
  let gone: Fundraiser;

  const albumPaths = () => [`/api/music-library/album/${gone.id}`, `/api/music-library/album/slug/${gone.urlSlug}`];
  const trackRows = () =>
    server.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.fundraiserId, gone.id)).all();
  const originals = () =>
    gone.tracksList.map((track) => fs.readFileSync(server.media.trackFile(track.uploadId!, 'wav')));

  beforeAll(async () => {
    seller = await verifiedUser(server, nextEmail('deleter'));
    const buyerEmail = nextEmail('keeper');
    buyer = await verifiedUser(server, buyerEmail);
    stranger = await verifiedUser(server, nextEmail('passer-by'));
    gone = await createFundraiser(seller, { publish: true, tracks: 2, details: { name: 'Gone Album' } });
    await server.jobs.drain();
    await donateTo(gone.id, buyerEmail);
    expect((await seller.delete(`/api/fundraisers/${gone.id}`)).status).toBe(200);
  });

  it('stays in its buyer’s purchases and leaves its owner’s albums', async () => {
    const purchases = await list(buyer, 'purchases');
    expect(purchases.results.map((item) => [item.projectId, item.projectName])).toEqual([[gone.id, 'Gone Album']]);
    expect(purchases.totalCount).toBe(1);
    expect((await list(seller, 'user')).results.map((item) => item.projectId)).not.toContain(gone.id);
  });

  it('opens for its buyer and admins, by id and by slug, saying the fundraiser is deleted', async () => {
    for (const [who, client] of [
      ['buyer', buyer],
      ['admin', admin],
    ] as const) {
      for (const path of albumPaths()) {
        const response = await client.get(path);
        expect(response.status, `${who} ${path}`).toBe(200);
        const detail = libraryAlbumDetailSchema.parse(response.json);
        expect(detail).toMatchObject({ projectId: gone.id, projectName: 'Gone Album', fundraiserDeleted: true });
        expect(detail.tracksZipLink).toBe(`/api/fundraisers/${gone.id}/download`);
        expect(detail.tracks.map((track) => track.src)).toEqual(
          trackRows().map((row) => `/api/tracks/${row.id}/stream?v=${row.streamFile!.replace(/\.mp3$/, '')}`),
        );
      }
    }
  });

  it('is 404 to its owner, who deleted it, and to everyone else', async () => {
    for (const [who, client] of [
      ['owner', seller],
      ['stranger', stranger],
    ] as const) {
      for (const path of albumPaths()) expect((await client.get(path)).status, `${who} ${path}`).toBe(404);
    }
  });

  it('streams its full tracks and downloads its zip for the buyer and admins only', async () => {
    const [row] = trackRows();
    const url = `/api/tracks/${row!.id}/stream?v=${row!.streamFile!.replace(/\.mp3$/, '')}`;
    const rendition = fs.readFileSync(server.media.streamFile(row!.streamFile!));
    const download = `/api/fundraisers/${gone.id}/download`;
    for (const [who, client] of [
      ['buyer', buyer],
      ['admin', admin],
    ] as const) {
      const stream = await getBytes(client, url);
      expect(stream.status, who).toBe(200);
      expect(stream.body.equals(rendition), who).toBe(true);
      const zip = await getBytes(client, download);
      expect(zip.status, who).toBe(200);
      expect(zip.body.toString('latin1')).toContain('02 - Track 2.wav');
      // Stored, not compressed: each original is in the zip byte for byte.
      for (const original of originals()) expect(zip.body.includes(original), who).toBe(true);
    }
    for (const [who, client] of [
      ['owner', seller],
      ['stranger', stranger],
      ['guest', server.client()],
    ] as const) {
      expect((await getBytes(client, url)).status, who).toBe(404);
    }
    expect((await seller.get(download)).status).toBe(404);
    expect((await stranger.get(download)).status).toBe(404);
    expect((await server.client().get(download)).status).toBe(401);
  });

  it('keeps no public face: previews and the fundraiser JSON are 404, even to its buyer and admins', async () => {
    const previews = trackRows().map(
      (row) => `/api/tracks/${row.id}/preview?v=${row.previewFile!.replace(/\.mp3$/, '')}`,
    );
    for (const client of [buyer, admin, server.client()]) {
      for (const path of [
        ...previews,
        `/api/fundraisers/${gone.id}/preview`,
        `/api/fundraisers/${gone.id}`,
        `/api/fundraisers/slug/${gone.urlSlug}`,
      ]) {
        expect((await client.get(path)).status, path).toBe(404);
      }
    }
  });

  it('keeps its uploads and renditions through the uploads cleanup', async () => {
    const unused = await uploadTrack(seller);
    const fundraiserRow = server.db.select().from(fundraisers).where(eq(fundraisers.id, gone.id)).get()!;
    const files = [
      ...gone.tracksList.map((track) => server.media.trackFile(track.uploadId!, 'wav')),
      server.media.trackFile(gone.previewTrackFile!, 'wav'),
      ...trackRows().flatMap((row) => [
        server.media.streamFile(row.streamFile!),
        server.media.previewFile(row.previewFile!),
      ]),
      server.media.streamFile(fundraiserRow.previewTrackStreamFile!),
      server.media.previewFile(fundraiserRow.previewTrackPreviewFile!),
    ];
    const coverFiles = () =>
      fs.readdirSync(server.media.dirs.images).filter((name) => name.startsWith(`${gone.albumCover!}-`));
    const coversBefore = coverFiles();
    expect(coversBefore.length).toBeGreaterThan(0);
    for (const file of files) expect(fs.existsSync(file), file).toBe(true);

    // Two days on, everything counts as old enough to go if nothing refers to it.
    await cleanupUnusedUploads(server, Date.now() + 2 * 24 * 60 * 60 * 1000);
    expect(fs.existsSync(server.media.trackFile(unused, 'wav'))).toBe(false);
    for (const file of files) expect(fs.existsSync(file), file).toBe(true);
    expect(coverFiles()).toEqual(coversBefore);

    // And the buyer still has it all.
    const detail = await album(buyer, gone.id);
    expect((await getBytes(buyer, detail.tracks[1]!.src!)).status).toBe(200);
    expect((await getBytes(buyer, detail.tracksZipLink!)).status).toBe(200);
  });
});
