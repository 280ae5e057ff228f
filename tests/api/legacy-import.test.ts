import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artistSchema } from '../../shared/answers/artists';
import { type Fundraiser, fundraiserListSchema, fundraiserSchema } from '../../shared/answers/fundraisers';
import { libraryAlbumDetailSchema } from '../../shared/answers/library';
import { artists, fundraisers, fundraiserTracks, jobs, uploads, users } from '../../server/db/schema';
import { mediaFilesInUse } from '../../server/infra/storage/upload-records';
import { wav } from '../fixtures/audio';
import { runCli } from '../fixtures/cli';
import { createArtist, editFormOf, legacyFormOf, uploadMusic } from '../fixtures/fundraisers';
import { albumZip, catalogueCsv, catalogueRow, writeCatalogue } from '../fixtures/legacy-catalogue';
import { adminClient, strongPassword, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';
import { craftedZip } from '../fixtures/zips';

// `npm run cli -- import-legacy FILE.csv` (issue 22): an old catalogue's albums become legacy v1
// fundraisers on a running site, through the CLI as an operator runs it, in its own process
// against the site's data folder; then the site shows them as it shows any legacy fundraiser.

const server = useTestServer();
let admin: TestClient;
beforeAll(async () => {
  admin = await adminClient(server);
});

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

async function catalogue(...args: Parameters<typeof writeCatalogue>) {
  const file = await writeCatalogue(...args);
  folders.push(path.dirname(file));
  return file;
}

const importLegacy = (file: string) => runCli(['import-legacy', file], server.dataDir);

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every media file on disk, and what the database holds: what a second run must leave as it was. */
function snapshot() {
  const { media, db } = server;
  const stored = ['images', 'tracks', 'zips', 'tmp'].flatMap((dir) =>
    fs.readdirSync(path.join(media.root, dir)).map((name) => `${dir}/${name}`),
  );
  const count = (table: typeof users | typeof artists | typeof fundraisers | typeof uploads | typeof jobs) =>
    db.select().from(table).all().length;
  return {
    stored: stored.sort(),
    inUse: [...new Set(mediaFilesInUse(db, media).map((file) => path.relative(media.root, file)))].sort(),
    rows: {
      users: count(users),
      artists: count(artists),
      fundraisers: count(fundraisers),
      uploads: count(uploads),
      jobs: count(jobs),
      tracks: db.select().from(fundraiserTracks).all().length,
    },
  };
}

async function fundraiserBySlug(client: TestClient, slug: string): Promise<Fundraiser> {
  const response = await client.get(`/api/fundraisers/slug/${slug}`);
  if (response.status !== 200) throw new Error(`${slug}: ${response.status} ${response.text}`);
  return fundraiserSchema.parse(response.json);
}

describe('npm run cli -- import-legacy', () => {
  it('imports each good row whole, reports each bad one by its line, and changes nothing when run again', async () => {
    // An account the catalogue's second row belongs to already, with an unfinished-looking draft artist.
    const known = await verifiedUser(server, 'known-owner@example.org');
    const knownArtist = await createArtist(known, { name: 'Known Artist' });
    const file = await catalogue([], '');
    const dir = path.dirname(file);
    fs.mkdirSync(path.join(dir, 'files'));
    fs.writeFileSync(path.join(dir, 'files', 'second.zip'), albumZip());
    fs.writeFileSync(path.join(dir, 'sneaky.zip'), craftedZip([{ name: '../../outside.wav', data: wav() }]));
    fs.writeFileSync(path.join(dir, 'song.png'), wav());
    const rows = [
      // Lines 2 to 6: commas, quotes and line breaks in quoted cells.
      catalogueRow('old-1', {
        owner_email: 'New.Owner@Example.org',
        artist_name: 'The Comma, Quartet',
        artist_description: 'They said "play it again".\nSo they did.',
        artist_website: 'https://comma.example.org',
        name: 'Songs, "Old" and New',
        genre_secondary: 'Jazz',
        youtube_link: 'dQw4w9WgXcQ',
        minimum_donation: '10.00',
        fundraising_goal: '$2,500',
        published_at: '2016-05-31',
        preview_track_name: 'Teaser',
        track_names: 'First song\nSecond song\n\nThird song',
      }),
      // Lines 7 and 8 (two track names): an existing account and its draft artist (named in other letters), published with it.
      catalogueRow('old-2', {
        owner_email: 'known-owner@example.org',
        artist_name: 'known artist',
        artist_description: '',
        artist_image: '',
        name: 'Known Album',
        album_zip: 'files/second.zip',
      }),
      // Lines 9 and 10: the first row's artist again, as a draft.
      catalogueRow('old-3', {
        owner_email: 'new.owner@example.org',
        artist_name: 'The Comma, Quartet',
        name: 'Unfinished Business',
        status: 'draft',
      }),
      // Line 11: cells the forms would refuse, a charity nobody knows and a file that is not there.
      catalogueRow('old-4', {
        owner_email: 'not an email',
        name: 'n'.repeat(76),
        genre: 'Polka',
        minimum_donation: '2.50',
        fundraising_goal: '1',
        charity_ein: '99-9999999',
        status: 'SOLD',
        published_at: '2999-01-01',
        album_cover: 'missing.png',
        track_names: '',
      }),
      // Lines 12 and 13: files that fail the upload checks: a zip that climbs out of its folder, audio as a cover.
      catalogueRow('old-5', { album_zip: 'sneaky.zip', album_cover: 'song.png' }),
      // Lines 14 and 15: the first row's external id again.
      catalogueRow('old-1', { name: 'A copy' }),
    ];
    // Line 16: a row that lost a cell.
    const csv = catalogueCsv(rows) + 'old-7,someone@example.org\r\n';
    fs.writeFileSync(file, csv);
    const before = snapshot();

    const first = await importLegacy(file);
    expect(first.code).toBe(1);
    expect(first.stdout).toContain(
      'line 2: imported "Songs, "Old" and New" by The Comma, Quartet as /projects/songs-old-and-new',
    );
    expect(first.stdout).toMatch(
      /line 7: imported "Known Album" by known artist as \/projects\/known-album \(fundraiser \d+, published\)/,
    );
    expect(first.stdout).toMatch(/line 9: imported "Unfinished Business" .* \(fundraiser \d+, draft\)/);
    expect(first.stdout).toContain(
      '7 rows: 3 imported (1 new artist, 1 new account), 0 imported before, 4 not imported (see above).',
    );
    expect(first.stdout).toContain(
      'their owners choose one with "Forgot password?" on the login page (new.owner@example.org)',
    );
    const problems = first.stderr.split('\n');
    expect(problems).toEqual(
      expect.arrayContaining([
        'line 16: not imported:',
        '    owner_email: Please enter a valid email.',
        '    name: Name cannot exceed 75 character(s).',
        expect.stringMatching(/^ {4}genre: Please select one of the options\. \(one of: Alternative, .*Other\)$/),
        '    minimum_donation: Donation minimum must be a whole dollar amount (no cents)',
        '    fundraising_goal: Fundraising goal must be at least $2',
        expect.stringMatching(/^ {4}charity_ein: Nonprofit is not valid \(.*import-irs-bmf.*\)$/),
        '    status: Status must be PUBLISHED or DRAFT.',
        '    published_at: Published at cannot be in the future.',
        `    album_cover: There is no file ${path.join(dir, 'missing.png')}.`,
        '    track_names: Must include at least one track name',
        'line 12: not imported:',
        '    album_cover: File type must be one of the following: jpeg, jpg, png',
        '    album_zip: The zip contains a file path that is not allowed: ../../outside.wav',
        'line 14: not imported:',
        '    external_id: old-1 is on line 2 too.',
        'line 11: not imported:',
        '    It has 2 cells where the header has 24: check its commas and quotes.',
      ]),
    );
    // The refused rows left nothing: no account, no artist, no file (every file stored is one a row names).
    const after = snapshot();
    expect(after.rows.users - before.rows.users).toBe(1);
    expect(after.rows.artists - before.rows.artists).toBe(1);
    expect(after.rows.fundraisers - before.rows.fundraisers).toBe(3);
    expect(after.stored.filter((name) => !before.stored.includes(name))).toEqual(
      after.inUse.filter((name) => !before.inUse.includes(name)),
    );
    expect(after.stored.filter((name) => name.startsWith('tmp/'))).toEqual([]);

    // The site shows them at once, as legacy v1 fundraisers.
    const imported = await fundraiserBySlug(server.client(), 'songs-old-and-new');
    expect(imported).toMatchObject({
      name: 'Songs, "Old" and New',
      status: 'PUBLISHED',
      publishedAt: '2016-05-31T00:00:00.000Z',
      hasV1Tracks: true,
      hasTracksZip: true,
      isPublishable: true,
      supportedOrg: 'American National Red Cross',
      supportedOrgEin: '53-0196605',
      minimumDonation: 1000,
      donationGoal: 250_000,
      genre: 'Folk',
      genreSecondary: 'Jazz',
      youtubeLink: 'dQw4w9WgXcQ',
      previewTrackName: 'Teaser',
      artist: { name: 'The Comma, Quartet', status: 'PUBLISHED' },
    });
    expect(imported.tracksList.map((track) => [track.name, track.status])).toEqual([
      ['First song', 'ready'],
      ['Second song', 'ready'],
      ['Third song', 'ready'],
    ]);
    expect((await fetch(`${server.baseUrl}${imported.image}`)).status).toBe(200);
    const artist = artistSchema.parse((await server.client().get('/api/artists/slug/the-comma-quartet')).json);
    expect(artist).toMatchObject({
      description: 'They said "play it again".\nSo they did.',
      website: 'https://comma.example.org',
      status: 'PUBLISHED',
      publishedAt: '2016-05-31T00:00:00.000Z',
    });
    expect((await fetch(`${server.baseUrl}${artist.image}`)).status).toBe(200);
    const knownAlbum = await fundraiserBySlug(server.client(), 'known-album');
    expect(knownAlbum.artist).toMatchObject({ id: knownArtist.id, status: 'PUBLISHED' });
    const draft = await fundraiserBySlug(admin, 'unfinished-business');
    expect(draft).toMatchObject({ status: 'DRAFT', artistId: artist.id, hasV1Tracks: true });
    expect((await server.client().get('/api/fundraisers/slug/unfinished-business')).status).toBe(404);
    const owner = server.db.select().from(users).where(eq(users.email, 'new.owner@example.org')).get();
    expect(owner).toMatchObject({ isEmailVerified: false, firstName: 'Olive', lastName: 'Oldfield', isAdmin: false });

    // The preview track is processed by the site's job runner, like any other.
    await server.jobs.drain();
    expect((await fundraiserBySlug(server.client(), 'songs-old-and-new')).previewTrackPreview).toMatch(/\?v=/);

    // Run again: the same rows are found by their external ids, and nothing changes.
    const settled = snapshot();
    const second = await importLegacy(file);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain(
      `line 2: external_id old-1 was imported already, as fundraiser ${imported.id}: skipped.`,
    );
    expect(second.stdout).toContain('7 rows: 0 imported, 3 imported before, 4 not imported (see above).');
    expect(snapshot()).toEqual(settled);
  });

  it('gives an admin the album zip byte for byte, on the download-only album page, and the owner their legacy forms', async () => {
    const file = await catalogue([
      catalogueRow('zip-1', { owner_email: 'zip-owner@example.org', name: 'Zip Album' }),
      catalogueRow('zip-2', { owner_email: 'zip-owner@example.org', name: 'Zip Draft', status: 'DRAFT' }),
    ]);
    const run = await importLegacy(file);
    expect(run.code, run.stderr).toBe(0);
    const album = await fundraiserBySlug(server.client(), 'zip-album');

    const zip = await fetch(`${server.baseUrl}/api/fundraisers/${album.id}/download`, {
      headers: { cookie: admin.cookieHeader(), 'x-forwarded-for': admin.ip },
    });
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toContain(encodeURIComponent('Zip Album.zip'));
    expect(sha256(Buffer.from(await zip.arrayBuffer()))).toBe(
      sha256(fs.readFileSync(path.join(path.dirname(file), 'album.zip'))),
    );
    const library = libraryAlbumDetailSchema.parse((await admin.get(`/api/music-library/album/${album.id}`)).json);
    expect(library).toMatchObject({
      hasV1Tracks: true,
      tracksZipLink: `/api/fundraisers/${album.id}/download`,
      tracks: [expect.objectContaining({ name: 'First song' }), expect.objectContaining({ name: 'Second song' })],
    });
    expect(library.tracks.every((track) => !track.src)).toBe(true);

    // The owner claims the account the import made, with 'Forgot password?'.
    const owner = server.client();
    await owner.post('/api/password-reset-email', { json: { email: 'zip-owner@example.org' } });
    await server.settled();
    const token = await server.outbox.latestResetToken('zip-owner@example.org');
    expect(
      (await owner.post('/api/password-reset', { json: { password: strongPassword, resetToken: token } })).status,
    ).toBe(200);
    expect(
      (await owner.post('/api/login', { form: { email: 'zip-owner@example.org', password: strongPassword } })).status,
    ).toBe(200);
    const theirs = fundraiserListSchema.parse((await owner.get('/api/fundraisers/user')).json);
    expect(theirs.map((item) => item.name).sort()).toEqual(['Zip Album', 'Zip Draft']);

    // Their draft takes the legacy form (updatev1) and keeps its zip; only an admin upgrades it to streaming.
    const draft = theirs.find((item) => item.name === 'Zip Draft')!;
    const renamed = { name: 'Zip Draft, renamed', trackList: JSON.stringify(['First song', 'Second song']) };
    const form = legacyFormOf(draft, renamed, null);
    expect((await owner.patch(`/api/fundraisers/${draft.id}/updatev1`, { multipart: form })).status).toBe(200);
    expect(fundraiserSchema.parse((await owner.get(`/api/fundraisers/${draft.id}`)).json)).toMatchObject({
      name: 'Zip Draft, renamed',
      hasTracksZip: true,
    });
    const music = await uploadMusic(admin, 2);
    const upgrade = editFormOf(draft, {
      albumCover: music.cover,
      previewTrackFile: music.preview,
      trackList: music.tracks.map((upload, index) => ({ name: `Track ${index + 1}`, file: upload })),
    });
    expect((await owner.patch(`/api/fundraisers/${draft.id}/update`, { json: upgrade })).status).toBe(403);
    expect((await admin.patch(`/api/fundraisers/${draft.id}/update`, { json: upgrade })).status).toBe(200);
    expect(fundraiserSchema.parse((await owner.get(`/api/fundraisers/${draft.id}`)).json).hasV1Tracks).toBe(false);
  });

  it("never gives an imported artist the address of one of the site's own pages under /artists/", async () => {
    const file = await catalogue([
      catalogueRow('slug-1', { owner_email: 'join-owner@example.org', artist_name: 'Join', name: 'Join Us' }),
    ]);
    const run = await importLegacy(file);
    expect(run.code, run.stderr).toBe(0);
    const artist = server.db.select().from(artists).where(eq(artists.name, 'Join')).get()!;
    expect(artist.urlSlug).not.toBe('join');
    expect(artistSchema.parse((await server.client().get(`/api/artists/slug/${artist.urlSlug}`)).json).name).toBe(
      'Join',
    );
  });

  it('imports nothing from a file it cannot read as a catalogue, and says why', async () => {
    const unclosed = await catalogue([], catalogueCsv([catalogueRow('broken-1')]) + 'broken-2,"never closed\r\n');
    const broken = await importLegacy(unclosed);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/is not a readable CSV file: line \d+: Quote Not Closed/);
    expect(
      server.db.select().from(fundraisers).where(eq(fundraisers.legacyExternalId, 'broken-1')).get(),
    ).toBeUndefined();

    const misspelt = await catalogue([], 'external_id,owner_emial\r\nx,y\r\n');
    const unknown = await importLegacy(misspelt);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'unknown column "owner_emial" in the header. The columns are: external_id, owner_email,',
    );

    expect((await importLegacy(path.join(os.tmpdir(), 'no-such-catalogue.csv'))).stderr).toContain('does not exist');
  });
});
