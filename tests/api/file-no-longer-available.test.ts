import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../shared/answers/api';
import { artistSchema } from '../../shared/answers/artists';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { artists, fundraisers, uploads } from '../../server/db/schema';
import { cleanupUnusedUploads } from '../../server/features/uploads/service';
import { UNUSED_UPLOAD_TTL_MS } from '../../server/infra/storage/upload-records';
import {
  createArtist,
  createFundraiser,
  details,
  editFormOf,
  legacyFormOf,
  RED_CROSS_EIN,
  uploadImage,
  uploadMusic,
  uploadTrack,
} from '../fixtures/fundraisers';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// FILE_NO_LONGER_AVAILABLE (spec part 1 section 8; DESIGN.md wave 3 'corrections'): every save
// that takes upload ids answers 400 { code, message, field, fields } when an id names an upload
// that expired (an hour unsaved), was removed (by the cleanup that follows), or never was, and
// saves nothing.

const server = useTestServer();
let admin: TestClient;
beforeAll(async () => {
  admin = await adminClient(server);
});

let counter = 0;
const newUser = (label: string) => verifiedUser(server, `${label}-${++counter}@example.org`);

const uploadRow = (id: string) => server.db.select().from(uploads).where(eq(uploads.id, id)).get();

/** The upload as it is an hour and a minute after it was made, still unsaved. */
function expire(id: string) {
  const past = new Date(Date.now() - UNUSED_UPLOAD_TTL_MS - 60_000);
  server.db.update(uploads).set({ createdAt: past }).where(eq(uploads.id, id)).run();
}

type Gone = 'expired' | 'removed' | 'made up';
const HOW: Gone[] = ['expired', 'removed', 'made up'];

/** An upload id of `client`'s that is gone the way `how` says. */
async function goneUpload(client: TestClient, kind: 'image' | 'track', how: Gone): Promise<string> {
  if (how === 'made up') return `made-up-${++counter}`;
  const id = kind === 'image' ? await uploadImage(client) : await uploadTrack(client);
  expire(id);
  if (how === 'removed') {
    await cleanupUnusedUploads(server);
    expect(uploadRow(id)).toBeUndefined();
  }
  return id;
}

/** The answer is the one the client parses, naming these fields, with words for a person. */
function expectGone(response: { status: number; json: unknown }, fields: string[], message: RegExp) {
  expect(response.status).toBe(400);
  const body = apiErrorSchema.parse(response.json);
  expect(body).toMatchObject({ code: 'FILE_NO_LONGER_AVAILABLE', field: fields[0], fields });
  expect(body.message).toMatch(message);
  expect(body.message).toMatch(/Please upload (it|them) again\.$/);
}

describe('artist saves', () => {
  it.each(HOW)('refuse a profile image that is %s, on create and on edit, and save nothing', async (how) => {
    const owner = await newUser(`artist-${how.replace(' ', '-')}`);
    const name = `Gone Image ${how}`;
    const created = await owner.post('/api/artists/new', {
      json: { name, description: 'd', profileImage: await goneUpload(owner, 'image', how) },
    });
    expectGone(created, ['profileImage'], /^The profile image is no longer available/);
    expect(server.db.select().from(artists).where(eq(artists.name, name)).get()).toBeUndefined();

    const artist = await createArtist(owner, { name: `Kept Image ${how}` });
    const edited = await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'Renamed', description: 'd', profileImage: await goneUpload(owner, 'image', how) },
    });
    expectGone(edited, ['profileImage'], /^The profile image is no longer available/);
    const after = artistSchema.parse((await owner.get(`/api/artists/${artist.id}`)).json);
    expect(after).toMatchObject({ name: `Kept Image ${how}`, profileImage: artist.profileImage });
  });

  it("answers someone else's image as gone, and keeps an artist's own image however old", async () => {
    const stranger = await newUser('image-stranger');
    const theirs = await uploadImage(stranger);
    const owner = await newUser('image-borrower');
    const borrowed = await owner.post('/api/artists/new', {
      json: { name: 'B', description: 'd', profileImage: theirs },
    });
    expectGone(borrowed, ['profileImage'], /profile image/);

    // A saved image is no longer waiting to be saved: its age does not matter.
    const artist = await createArtist(owner);
    expire(artist.profileImage!);
    const again = await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'Still here', description: 'd', profileImage: artist.profileImage },
    });
    expect(again.status).toBe(200);
    // An image saved into one artist may be chosen for another, old as it is.
    const reused = await owner.post('/api/artists/new', {
      json: { name: 'Same face', description: 'd', profileImage: artist.profileImage },
    });
    expect(reused.status).toBe(201);
  });

  it('refuses a track where an image belongs with its own field message', async () => {
    const owner = await newUser('image-kind');
    const response = await owner.post('/api/artists/new', {
      json: { name: 'K', description: 'd', profileImage: await uploadTrack(owner) },
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      formErrors: [{ field: 'profileImage', message: 'Please upload the profile image again.' }],
    });
  });
});

describe('fundraiser saves', () => {
  async function draftOf(owner: TestClient) {
    const artist = await createArtist(owner);
    const saved = await owner.post('/api/fundraisers/save', {
      json: {
        artistId: artist.id,
        charityEin: RED_CROSS_EIN,
        donationMinimumCents: 500,
        fundraisingGoalCents: 100_000,
        ...details,
      },
    });
    return (saved.json as { id: number }).id;
  }

  it.each(HOW)("refuse the wizard's music with a cover, preview or track that is %s", async (how) => {
    const owner = await newUser(`music-${how.replace(' ', '-')}`);
    const id = await draftOf(owner);
    const fresh = await uploadMusic(owner, 2);
    const music = (changes: Record<string, unknown>) => ({
      id,
      albumCover: fresh.cover,
      previewTrackName: 'Preview',
      previewTrackFile: fresh.preview,
      trackList: fresh.tracks.map((file, index) => ({ name: `Track ${index + 1}`, file })),
      ...changes,
    });
    const cover = await owner.patch('/api/fundraisers/music', {
      json: music({ albumCover: await goneUpload(owner, 'image', how) }),
    });
    expectGone(cover, ['albumCover'], /^The album cover is no longer available/);
    const track = await owner.patch('/api/fundraisers/music', {
      json: music({
        trackList: [
          { name: 'One', file: fresh.tracks[0] },
          { name: 'Two', file: await goneUpload(owner, 'track', how) },
        ],
      }),
    });
    expectGone(track, ['trackList.1.file'], /^The file of track 2 is no longer available/);
    const all = await owner.patch('/api/fundraisers/music', {
      json: music({
        albumCover: await goneUpload(owner, 'image', how),
        previewTrackFile: await goneUpload(owner, 'track', how),
        trackList: [{ name: 'One', file: await goneUpload(owner, 'track', how) }],
      }),
    });
    expectGone(
      all,
      ['albumCover', 'previewTrackFile', 'trackList.0.file'],
      /^The album cover, preview track and file of track 1 are no longer available/,
    );
    const draft = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${id}`)).json);
    expect(draft.albumCover).toBeUndefined();
    expect(draft.tracksList).toEqual([]);

    // The same files, fresh, are taken.
    expect((await owner.patch('/api/fundraisers/music', { json: music({}) })).status).toBe(200);
  });

  it.each(HOW)('refuse the streaming edit form with a preview track that is %s', async (how) => {
    const owner = await newUser(`edit-${how.replace(' ', '-')}`);
    const fundraiser = await createFundraiser(owner);
    const response = await owner.patch(`/api/fundraisers/${fundraiser.id}/update`, {
      json: editFormOf(fundraiser, { name: 'Renamed', previewTrackFile: await goneUpload(owner, 'track', how) }),
    });
    expectGone(response, ['previewTrackFile'], /^The preview track is no longer available/);
    const after = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(after).toMatchObject({ name: fundraiser.name, previewTrackFile: fundraiser.previewTrackFile });
  });

  it.each(HOW)('refuse the legacy form (updatev1) with a cover that is %s, before keeping its zip', async (how) => {
    const owner = await newUser(`legacy-${how.replace(' ', '-')}`);
    const fundraiser = await createFundraiser(owner);
    server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, fundraiser.id)).run();
    const form = legacyFormOf(fundraiser, { name: 'Renamed', albumCover: await goneUpload(owner, 'image', how) });
    const zipsBefore = server.db.select().from(uploads).where(eq(uploads.kind, 'zip')).all().length;
    const response = await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, { multipart: form });
    expectGone(response, ['albumCover'], /^The album cover is no longer available/);
    expect(server.db.select().from(uploads).where(eq(uploads.kind, 'zip')).all()).toHaveLength(zipsBefore);
    const after = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(after).toMatchObject({ name: fundraiser.name, albumCover: fundraiser.albumCover });
  });

  it("keeps the files a fundraiser already has, whoever saves it and however old, and refuses another's", async () => {
    const owner = await newUser('own-files');
    const fundraiser = await createFundraiser(owner);
    for (const id of [fundraiser.albumCover!, fundraiser.previewTrackFile!]) expire(id);
    const byAdmin = await admin.patch(`/api/fundraisers/${fundraiser.id}/update`, {
      json: editFormOf(fundraiser, { name: 'Kept by an admin' }),
    });
    expect(byAdmin.status).toBe(200);

    const other = await newUser('other-files');
    const theirs = await uploadTrack(other);
    const borrowed = await owner.patch(`/api/fundraisers/${fundraiser.id}/update`, {
      json: editFormOf(fundraiser, { previewTrackFile: theirs }),
    });
    expectGone(borrowed, ['previewTrackFile'], /preview track/);
  });
});
