import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  fundraiserListSchema,
  fundraiserSchema,
  fundraiserSearchResultSchema,
  fundraiserTransactionsSchema,
} from '../../shared/answers/fundraisers';
import { artists, donations, fundraisers, uploads } from '../../server/db/schema';
import { cleanupUnusedUploads } from '../../server/features/uploads/service';
import { fileForm, mp3Frames, wav } from '../fixtures/audio';
import {
  CANCER_SOCIETY_EIN,
  createArtist,
  createFundraiser,
  details,
  editFormOf,
  RED_CROSS_EIN,
  uploadImage,
  uploadMusic,
  uploadTrack,
} from '../fixtures/fundraisers';
import { imageForm, png } from '../fixtures/images';
import { craftedZip } from '../fixtures/zips';
import { adminClient, fieldErrors, registerUser, type TestClient, verifiedUser } from '../fixtures/test-server';
import { donate, startDonation } from '../fixtures/donations';
import { useTestServer } from '../fixtures/use-test-server';

const server = useTestServer();
let admin: TestClient;
beforeAll(async () => {
  admin = await adminClient(server);
});

let counter = 0;
const nextEmail = (label: string) => `${label}-${++counter}@example.org`;
const newUser = (label: string) => verifiedUser(server, nextEmail(label));

const money = { donationMinimumCents: 500, fundraisingGoalCents: 100_000 };

describe('POST /api/fundraisers/save', () => {
  it('creates a draft from artist and charity, then updates it with the details', async () => {
    const owner = await newUser('saver');
    const artist = await createArtist(owner);
    const created = await owner.post('/api/fundraisers/save', {
      json: { artistId: artist.id, charityEin: RED_CROSS_EIN, ...money },
    });
    expect(created.status).toBe(201);
    const { id, urlSlug } = created.json as { id: number; urlSlug?: string };
    expect(urlSlug).toBeUndefined();

    const draft = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${id}`)).json);
    expect(draft).toMatchObject({
      status: 'DRAFT',
      name: '',
      supportedOrg: 'American National Red Cross',
      supportedOrgEin: '53-0196605',
      supportedOrgWebsite: 'https://www.redcross.org',
      minimumDonation: 500,
      donationGoal: 100_000,
      isPublishable: false,
      hasV1Tracks: false,
      hasTracksZip: false,
      totalRaised: 0,
      artist: { id: artist.id, name: 'The Test Band', status: 'DRAFT', isPublishable: true },
    });

    const updated = await owner.post('/api/fundraisers/save', {
      json: { id, artistId: artist.id, charityEin: '530196605', ...money, ...details, name: 'Sea Shanties for Relief' },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual({ id, urlSlug: 'sea-shanties-for-relief' });
    const saved = fundraiserSchema.parse((await owner.get('/api/fundraisers/slug/sea-shanties-for-relief')).json);
    expect(saved).toMatchObject({ id, genre: 'Folk', genreSecondary: 'Rock', description: details.description });
  });

  it('needs an artist and a charity first', async () => {
    const owner = await newUser('no-artist');
    const response = await owner.post('/api/fundraisers/save', { json: { charityEin: RED_CROSS_EIN, ...money } });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      code: 'OTHER',
      message: 'Unable to save project. Please choose an artist and charity first',
    });
    const artist = await createArtist(owner);
    const noCharity = await owner.post('/api/fundraisers/save', { json: { artistId: artist.id, ...money } });
    expect((noCharity.json as { message: string }).message).toBe(
      'Unable to save project. Please choose an artist and charity first',
    );
  });

  it('checks every field with the spec messages', async () => {
    const owner = await newUser('validator');
    const artist = await createArtist(owner);
    const save = (json: Record<string, unknown>) =>
      owner.post('/api/fundraisers/save', {
        json: { artistId: artist.id, charityEin: RED_CROSS_EIN, ...money, ...details, ...json },
      });

    expect(fieldErrors((await save({ donationMinimumCents: 250 })).json)).toEqual({
      donationMinimumCents: 'Donation minimum must be a whole dollar amount (no cents)',
    });
    expect(fieldErrors((await save({ donationMinimumCents: 100 })).json)).toEqual({
      donationMinimumCents: 'Donation minimum must be at least $2',
    });
    expect(fieldErrors((await save({ donationMinimumCents: 1_000_100 })).json)).toEqual({
      donationMinimumCents: 'Donation minimum cannot exceed $10,000',
    });
    expect(fieldErrors((await save({ fundraisingGoalCents: 10_000_001 })).json)).toEqual({
      fundraisingGoalCents: 'Fundraising goal cannot exceed $100,000',
    });
    expect(fieldErrors((await save({ fundraisingGoalCents: 199 })).json)).toEqual({
      fundraisingGoalCents: 'Fundraising goal must be at least $2',
    });
    const tooLong = await save({
      name: 'n'.repeat(76),
      description: 'd'.repeat(5001),
      genre: 'Polka',
      youtubeLink: 'y'.repeat(201),
      vimeoLink: 'v'.repeat(201),
    });
    expect(tooLong.status).toBe(400);
    expect(fieldErrors(tooLong.json)).toEqual({
      name: 'Name cannot exceed 75 character(s).',
      description: 'Description cannot exceed 5000 character(s).',
      genre: 'Please select one of the options.',
      youtubeLink: 'YouTube code cannot exceed 200 character(s).',
      vimeoLink: 'Vimeo code cannot exceed 200 character(s).',
    });
    expect(fieldErrors((await save({ name: '  ', description: undefined })).json)).toEqual({
      name: 'Name is required.',
      description: 'Description is required.',
    });
    expect(fieldErrors((await save({ charityEin: '99-9999999' })).json)).toEqual({
      charityEin: 'Nonprofit is not valid',
    });
    expect(fieldErrors((await save({ charityEin: 'not an ein' })).json)).toEqual({
      charityEin: 'Nonprofit is not valid',
    });
    expect(fieldErrors((await save({ charityEin: '1'.repeat(101) })).json)).toEqual({
      charityEin: 'Charity EIN cannot exceed 100 character(s).',
    });
    expect(
      (await owner.post('/api/fundraisers/save', { body: 'x', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(415);
  });

  it('is for verified users, with their own artist, and keeps other people out of their drafts', async () => {
    expect((await server.client().post('/api/fundraisers/save', { json: {} })).status).toBe(401);
    const unverified = server.client();
    await registerUser(unverified, nextEmail('unverified'));
    expect((await unverified.post('/api/fundraisers/save', { json: {} })).status).toBe(403);

    const owner = await newUser('owner');
    const other = await newUser('other');
    const artist = await createArtist(owner);
    const stolen = await other.post('/api/fundraisers/save', {
      json: { artistId: artist.id, charityEin: RED_CROSS_EIN, ...money },
    });
    expect(stolen.status).toBe(400);
    expect(fieldErrors(stolen.json)).toEqual({ artistId: 'Please choose one of your artists.' });

    const draft = await createFundraiser(owner, { artistId: artist.id });
    const otherArtist = await createArtist(other);
    const takeover = await other.post('/api/fundraisers/save', {
      json: { id: draft.id, artistId: otherArtist.id, charityEin: RED_CROSS_EIN, ...money },
    });
    expect(takeover.status).toBe(404);
    expect((await other.get(`/api/fundraisers/${draft.id}`)).status).toBe(404);
    expect((await server.client().get(`/api/fundraisers/${draft.id}`)).status).toBe(404);
    expect((await admin.get(`/api/fundraisers/${draft.id}`)).status).toBe(200);
    expect(fundraiserSchema.parse((await owner.get(`/api/fundraisers/${draft.id}`)).json).name).toBe(details.name);
  });
});

describe('PATCH /api/fundraisers/music', () => {
  it('stores cover, preview and tracks, answering the id and slug', async () => {
    const owner = await newUser('music');
    const draft = await createFundraiser(owner, { tracks: 3 });
    expect(draft.isPublishable).toBe(true);
    expect(draft.tracksList.map((track) => [track.name, track.status])).toEqual([
      ['Track 1', 'processing'],
      ['Track 2', 'processing'],
      ['Track 3', 'processing'],
    ]);
    expect(draft.image).toBe(`/media/images/${draft.albumCover}-400.jpg`);
    expect(draft.previewTrackPreview).toBe(`/api/fundraisers/${draft.id}/preview`);
    expect(draft.previewTrackFile).toBeTruthy();
    expect(draft.tracksList.every((track) => track.uploadId)).toBe(true);

    // Reordering and renaming keeps the tracks (and later their processed audio); a removed one goes.
    const [first, second, third] = draft.tracksList;
    const response = await owner.patch('/api/fundraisers/music', {
      json: {
        id: draft.id,
        albumCover: draft.albumCover,
        previewTrackName: 'The single',
        previewTrackFile: draft.previewTrackFile,
        trackList: [
          { id: third!.id, name: 'Opener', file: third!.uploadId },
          { id: first!.id, name: 'Track 1', file: first!.uploadId },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ id: draft.id, urlSlug: draft.urlSlug });
    const after = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${draft.id}`)).json);
    expect(after.tracksList.map((track) => [track.id, track.name])).toEqual([
      [third!.id, 'Opener'],
      [first!.id, 'Track 1'],
    ]);
    expect(after.tracksList.some((track) => track.id === second!.id)).toBe(false);
    expect(after.previewTrackName).toBe('The single');
  });

  it('takes 1 to 40 tracks, named, and only the caller’s own uploads of the right kind', async () => {
    const owner = await newUser('tracks');
    const draft = await createFundraiser(owner);
    const uploads = await uploadMusic(owner, 1);
    const send = (json: Record<string, unknown>) =>
      owner.patch('/api/fundraisers/music', {
        json: {
          id: draft.id,
          albumCover: uploads.cover,
          previewTrackName: '',
          previewTrackFile: uploads.preview,
          trackList: [{ name: 'One', file: uploads.tracks[0] }],
          ...json,
        },
      });
    const track = { name: 'Song', file: uploads.tracks[0] };
    expect(fieldErrors((await send({ trackList: Array.from({ length: 41 }, () => track) })).json)).toEqual({
      trackList: 'A project may have no more than 40 tracks.',
    });
    expect((await send({ trackList: Array.from({ length: 40 }, () => track) })).status).toBe(200);
    expect(fieldErrors((await send({ trackList: [] })).json)).toEqual({
      trackList: 'Must include at least one track name',
    });
    expect(
      fieldErrors((await send({ trackList: [{ name: 'x'.repeat(101), file: uploads.tracks[0] }, { name: '' }] })).json),
    ).toEqual({
      'trackList.0.name': 'Track name cannot exceed 100 character(s).',
      'trackList.1.name': 'Track name is required.',
      'trackList.1.file': 'Track file is required.',
    });
    expect(fieldErrors((await send({ albumCover: '', previewTrackFile: '' })).json)).toEqual({
      albumCover: 'Album cover is required.',
      previewTrackFile: 'Preview track is required.',
    });
    // An image id where a track belongs is refused on its field; someone else's upload is no
    // upload at all to this user (tests/api/file-no-longer-available.test.ts).
    expect(
      fieldErrors(
        (await send({ previewTrackFile: uploads.cover, trackList: [{ name: 'Cover', file: uploads.cover }] })).json,
      ),
    ).toEqual({
      previewTrackFile: 'Please upload the preview track again.',
      'trackList.0.file': 'Please upload the file of track 1 again.',
    });
    const other = await newUser('other-uploader');
    const theirs = await uploadTrack(other);
    expect((await send({ trackList: [{ name: 'Theirs', file: theirs }] })).json).toMatchObject({
      code: 'FILE_NO_LONGER_AVAILABLE',
      fields: ['trackList.0.file'],
    });
    expect(
      (
        await other.patch('/api/fundraisers/music', {
          json: { id: draft.id, albumCover: 'x', previewTrackFile: 'y', trackList: [{ name: 'a', file: theirs }] },
        })
      ).status,
    ).toBe(404);
  });
});

describe('publishing', () => {
  it('publishes only a publishable fundraiser, and its draft artist only when asked', async () => {
    const owner = await newUser('publisher');
    const artist = await createArtist(owner);
    const incomplete = await owner.post('/api/fundraisers/save', {
      json: { artistId: artist.id, charityEin: RED_CROSS_EIN, ...money },
    });
    const incompleteId = (incomplete.json as { id: number }).id;
    const notReady = await owner.patch(`/api/fundraisers/${incompleteId}/publish`);
    expect(notReady.status).toBe(400);
    expect((notReady.json as { message: string }).message).toBe(
      'This fundraiser is not ready to publish yet. Please add the details and music first.',
    );

    const draft = await createFundraiser(owner, { artistId: artist.id });
    const withoutArtist = await owner.patch(`/api/fundraisers/${draft.id}/publish`);
    expect(withoutArtist.status).toBe(400);
    expect((withoutArtist.json as { message: string }).message).toBe(
      'The artist of this fundraiser is a draft: publish both, or publish the artist first.',
    );
    expect((await server.client().patch(`/api/fundraisers/${draft.id}/publish`)).status).toBe(401);
    const other = await newUser('not-owner');
    expect((await other.patch(`/api/fundraisers/${draft.id}/publish`)).status).toBe(404);

    const published = await owner.patch(`/api/fundraisers/${draft.id}/publish`, { json: { publishArtist: true } });
    expect(published.status).toBe(200);
    const fundraiser = fundraiserSchema.parse(published.json);
    expect(fundraiser.status).toBe('PUBLISHED');
    expect(fundraiser.publishedAt).toBeTruthy();
    expect(fundraiser.artist.status).toBe('PUBLISHED');
    expect(server.db.select().from(artists).where(eq(artists.id, artist.id)).get()?.status).toBe('PUBLISHED');
    // Now public, and the owner's upload ids are not.
    const asGuest = fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${draft.id}`)).json);
    expect(asGuest.previewTrackFile).toBeUndefined();
    expect(asGuest.canManage).toBe(false);
    expect(fundraiserSchema.parse((await other.get(`/api/fundraisers/${draft.id}`)).json).canManage).toBe(false);
    expect(fundraiser.canManage).toBe(true);
    // Admins manage every fundraiser (spec part 2 section 6), so its page offers them the manage page too.
    expect(fundraiserSchema.parse((await admin.get(`/api/fundraisers/${draft.id}`)).json).canManage).toBe(true);
    expect(asGuest.tracksList.every((track) => track.uploadId === undefined)).toBe(true);
    expect((await other.patch(`/api/fundraisers/${draft.id}/publish`)).status).toBe(403);
  });

  it('tells the owner to finish an artist that cannot be published', async () => {
    const owner = await newUser('half-artist');
    const artist = await createArtist(owner);
    const draft = await createFundraiser(owner, { artistId: artist.id });
    server.db.update(artists).set({ description: '' }).where(eq(artists.id, artist.id)).run();
    const response = await owner.patch(`/api/fundraisers/${draft.id}/publish`, { json: { publishArtist: true } });
    expect(response.status).toBe(400);
    expect((response.json as { message: string }).message).toBe(
      'Please finish creating the artist before publishing this fundraiser.',
    );
  });
});

describe('PATCH /api/fundraisers/{id}/update', () => {
  it('lets owners edit drafts only, and only admins change a published fundraiser’s charity', async () => {
    const owner = await newUser('editor');
    const draft = await createFundraiser(owner);
    const edited = await owner.patch(`/api/fundraisers/${draft.id}/update`, {
      json: { ...editFormOf(draft), name: 'Renamed while a draft', charityEin: CANCER_SOCIETY_EIN },
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toEqual({ id: draft.id, urlSlug: 'renamed-while-a-draft' });

    await owner.patch(`/api/fundraisers/${draft.id}/publish`, { json: { publishArtist: true } });
    const published = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${draft.id}`)).json);
    expect(published.supportedOrg).toBe('American Cancer Society');
    const refused = await owner.patch(`/api/fundraisers/${draft.id}/update`, {
      json: { ...editFormOf(published), name: 'Renamed after publishing' },
    });
    expect(refused.status).toBe(403);
    expect((refused.json as { message: string }).message).toBe(
      'Only draft fundraisers can be edited. Please contact us to change a published one.',
    );

    const other = await newUser('stranger');
    expect((await other.patch(`/api/fundraisers/${draft.id}/update`, { json: editFormOf(published) })).status).toBe(
      403,
    );

    const byAdmin = await admin.patch(`/api/fundraisers/${draft.id}/update`, {
      json: { ...editFormOf(published), name: 'Renamed by an admin', charityEin: RED_CROSS_EIN },
    });
    expect(byAdmin.status).toBe(200);
    // A published fundraiser keeps its link.
    expect(byAdmin.json).toEqual({ id: draft.id, urlSlug: 'renamed-while-a-draft' });
    const after = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${draft.id}`)).json);
    expect(after).toMatchObject({ name: 'Renamed by an admin', supportedOrg: 'American National Red Cross' });
  });

  it('refuses invalid edits with the field messages', async () => {
    const owner = await newUser('bad-editor');
    const draft = await createFundraiser(owner);
    const response = await owner.patch(`/api/fundraisers/${draft.id}/update`, {
      json: { ...editFormOf(draft), name: '', donationMinimumCents: 250, charityEin: '' },
    });
    expect(fieldErrors(response.json)).toEqual({
      name: 'Name is required.',
      donationMinimumCents: 'Donation minimum must be a whole dollar amount (no cents)',
      charityEin: 'Nonprofit is required',
    });
  });
});

describe('legacy v1 fundraisers', () => {
  const zipBytes = craftedZip([{ name: '01 Old song.wav', data: wav() }]);

  async function legacyFundraiser(owner: TestClient) {
    const fundraiser = await createFundraiser(owner);
    server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, fundraiser.id)).run();
    return fundraiser;
  }

  function v1Form(fundraiser: ReturnType<typeof fundraiserSchema.parse>, fields: Record<string, string> = {}) {
    const form = new FormData();
    const values: Record<string, string> = {
      ...details,
      charityEin: fundraiser.charityEin,
      donationMinimumCents: '500',
      fundraisingGoalCents: '100000',
      albumCover: fundraiser.albumCover ?? '',
      previewTrackName: 'Preview',
      previewTrackFile: fundraiser.previewTrackFile ?? '',
      trackList: JSON.stringify(['Old song', 'Older song']),
      ...fields,
    };
    for (const [name, value] of Object.entries(values)) form.append(name, value);
    return form;
  }

  it('takes track names and an album zip, required until one exists', async () => {
    const owner = await newUser('legacy');
    const fundraiser = await legacyFundraiser(owner);
    const withoutZip = await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, {
      multipart: v1Form(fundraiser),
    });
    expect(withoutZip.status).toBe(400);
    expect(fieldErrors(withoutZip.json)).toEqual({ albumZip: 'Album zip is required.' });

    const notZip = v1Form(fundraiser);
    notZip.append('albumZip', new Blob([new Uint8Array(wav())], { type: 'application/zip' }), 'album.zip');
    const refused = await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, { multipart: notZip });
    expect(refused.status).toBe(400);
    expect(fieldErrors(refused.json)).toEqual({ albumZip: 'File type must be one of the following: zip' });

    const form = v1Form(fundraiser, { name: 'The Old Album' });
    form.append('albumZip', new Blob([new Uint8Array(zipBytes)], { type: 'application/zip' }), 'album.zip');
    const saved = await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, { multipart: form });
    expect(saved.status).toBe(200);
    const after = fundraiserSchema.parse((await owner.get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(after).toMatchObject({ name: 'The Old Album', hasV1Tracks: true, hasTracksZip: true, isPublishable: true });
    expect(after.tracksList.map((track) => track.name)).toEqual(['Old song', 'Older song']);

    // With a zip on file, the form can be saved without sending another.
    const again = await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, {
      multipart: v1Form(fundraiser, { trackList: JSON.stringify([]) }),
    });
    expect(fieldErrors(again.json)).toEqual({ trackList: 'Must include at least one track name' });
    const noZipNeeded = await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, {
      multipart: v1Form(fundraiser),
    });
    expect(noZipNeeded.status).toBe(200);
  });

  it('is upgraded to streaming by an admin only', async () => {
    const owner = await newUser('legacy-owner');
    const fundraiser = await legacyFundraiser(owner);
    const streaming = {
      ...details,
      charityEin: fundraiser.charityEin,
      donationMinimumCents: 500,
      fundraisingGoalCents: 100000,
      albumCover: fundraiser.albumCover,
      previewTrackName: '',
      previewTrackFile: fundraiser.previewTrackFile,
      trackList: fundraiser.tracksList.map((track) => ({ name: track.name, file: track.uploadId })),
    };
    expect((await owner.patch(`/api/fundraisers/${fundraiser.id}/update`, { json: streaming })).status).toBe(403);
    expect(
      (await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, { multipart: new FormData() })).status,
    ).toBe(400);
    const upgraded = await admin.patch(`/api/fundraisers/${fundraiser.id}/update`, { json: streaming });
    expect(upgraded.status).toBe(200);
    expect(fundraiserSchema.parse((await owner.get(`/api/fundraisers/${fundraiser.id}`)).json).hasV1Tracks).toBe(false);
  });
});

describe('search, lists and reads', () => {
  it('finds published fundraisers by words of the name, artist and charity, with genre and EIN filters', async () => {
    const owner = await newUser('searcher');
    const artist = await createArtist(owner, { name: 'Zanzibar Quartet' });
    const uploads = await uploadMusic(owner, 1);
    const folk = await createFundraiser(owner, {
      artistId: artist.id,
      uploads,
      publish: true,
      details: { name: 'Quillfeather Ballads', genre: 'Folk', genreSecondary: 'Jazz' },
    });
    const rock = await createFundraiser(owner, {
      artistId: artist.id,
      uploads,
      publish: true,
      charityEin: CANCER_SOCIETY_EIN,
      details: { name: 'Quillfeather Anthems', genre: 'Rock', genreSecondary: '' },
    });
    await createFundraiser(owner, { artistId: artist.id, uploads, details: { name: 'Quillfeather Drafts' } });

    const search = async (query: Record<string, string>) => {
      const response = await server.client().get(`/api/fundraisers/search?${new URLSearchParams(query)}`);
      expect(response.status).toBe(200);
      return fundraiserSearchResultSchema.parse(response.json);
    };
    const names = (result: { results: { name: string }[] }) => result.results.map((f) => f.name).sort();

    expect(names(await search({ searchTerm: 'quillf' }))).toEqual(['Quillfeather Anthems', 'Quillfeather Ballads']);
    expect(names(await search({ searchTerm: 'zanzi' }))).toEqual(['Quillfeather Anthems', 'Quillfeather Ballads']);
    expect(names(await search({ searchTerm: 'quillfeather cancer' }))).toEqual(['Quillfeather Anthems']);
    expect(names(await search({ searchTerm: 'quillfeather', genre: 'Jazz' }))).toEqual(['Quillfeather Ballads']);
    expect(names(await search({ searchTerm: 'quillfeather', charityEin: '131788491' }))).toEqual([
      'Quillfeather Anthems',
    ]);
    expect(names(await search({ searchTerm: 'quillfeather', charityEin: CANCER_SOCIETY_EIN }))).toEqual([
      'Quillfeather Anthems',
    ]);
    expect((await search({ searchTerm: 'quillfeather', charityEin: 'nonsense' })).totalCount).toBe(0);
    expect((await search({ searchTerm: '!!!' })).totalCount).toBe(0);

    // No term: newest published first, filtered too.
    const recent = await search({ genre: 'Rock' });
    expect(recent.results[0]?.id).toBe(rock.id);
    expect(recent.results.every((f) => f.genre === 'Rock' || f.genreSecondary === 'Rock')).toBe(true);
    const page = await search({ searchTerm: 'quillfeather', pageSize: '1', page: '1' });
    expect(page).toMatchObject({ totalCount: 2 });
    expect(page.results).toHaveLength(1);
    expect((await search({ searchTerm: 'quillfeather', page: 'abc' })).results).toHaveLength(2);

    const invalid = await server.client().get(`/api/fundraisers/search?searchTerm=${'a'.repeat(801)}&genre=Polka`);
    expect(invalid.status).toBe(400);
    expect(fieldErrors(invalid.json)).toEqual({
      searchTerm: 'Search term cannot exceed 800 character(s).',
      genre: 'Please select one of the options.',
    });

    // Renaming the artist re-indexes its fundraisers; deleting one takes it out of search.
    await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'Ytterbium Quartet', description: 'Songs about testing.' },
    });
    expect(names(await search({ searchTerm: 'ytterb' }))).toEqual(['Quillfeather Anthems', 'Quillfeather Ballads']);
    expect((await owner.delete(`/api/fundraisers/${folk.id}`)).status).toBe(200);
    expect(names(await search({ searchTerm: 'quillfeather' }))).toEqual(['Quillfeather Anthems']);
  });

  it('lists by artist (published), by user (drafts too) and featured (newest until admins choose)', async () => {
    const owner = await newUser('lister');
    const artist = await createArtist(owner);
    const uploads = await uploadMusic(owner, 1);
    const published = await createFundraiser(owner, { artistId: artist.id, uploads, publish: true });
    const draft = await createFundraiser(owner, { artistId: artist.id, uploads });

    const byArtist = fundraiserListSchema.parse(
      (await server.client().get(`/api/fundraisers/artist/${artist.id}`)).json,
    );
    expect(byArtist.map((f) => f.id)).toEqual([published.id]);
    const mine = fundraiserListSchema.parse((await owner.get('/api/fundraisers/user')).json);
    expect(mine.map((f) => f.id)).toEqual([draft.id, published.id]);
    expect((await server.client().get('/api/fundraisers/user')).status).toBe(401);
    const featured = fundraiserListSchema.parse((await server.client().get('/api/fundraisers/featured')).json);
    expect(featured[0]?.id).toBe(published.id);
    expect(featured.every((f) => f.status === 'PUBLISHED')).toBe(true);
    expect((await server.client().get('/api/fundraisers/abc')).status).toBe(404);
    expect((await server.client().get('/api/fundraisers/slug/no-such-fundraiser')).status).toBe(404);
  });

  it('serves the preview track with range requests', async () => {
    const owner = await newUser('previewer');
    const fundraiser = await createFundraiser(owner, { publish: true });
    const full = await fetch(`${server.baseUrl}/api/fundraisers/${fundraiser.id}/preview`);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await full.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    const part = await fetch(`${server.baseUrl}/api/fundraisers/${fundraiser.id}/preview`, {
      headers: { range: 'bytes=0-99' },
    });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });
});

describe('deleting', () => {
  it('is for the owner or an admin, keeps donations, and goes with the artist', async () => {
    const owner = await newUser('deleter');
    const artist = await createArtist(owner);
    const uploads = await uploadMusic(owner, 1);
    const first = await createFundraiser(owner, { artistId: artist.id, uploads, publish: true });
    const second = await createFundraiser(owner, { artistId: artist.id, uploads });
    await donate(server, { fundraiserId: first.id, email: 'fan@example.org', donationCents: 1500 });

    const other = await newUser('not-the-owner');
    expect((await other.delete(`/api/fundraisers/${first.id}`)).status).toBe(403);
    expect((await other.delete(`/api/fundraisers/${second.id}`)).status).toBe(404);
    expect((await server.client().delete(`/api/fundraisers/${first.id}`)).status).toBe(401);

    expect((await owner.delete(`/api/artists/${artist.id}`)).status).toBe(200);
    expect((await owner.get(`/api/fundraisers/${first.id}`)).status).toBe(404);
    expect((await owner.get(`/api/fundraisers/${second.id}`)).status).toBe(404);
    expect(fundraiserListSchema.parse((await owner.get('/api/fundraisers/user')).json)).toEqual([]);
    const kept = server.db.select().from(donations).where(eq(donations.fundraiserId, first.id)).all();
    expect(kept).toHaveLength(1);
    expect(server.db.select().from(fundraisers).where(eq(fundraisers.id, first.id)).get()?.deletedAt).toBeTruthy();
  });
});

describe('GET /api/fundraisers/{id}/transactions', () => {
  it('gives the owner and admins the donors, newest first, and the totals to everyone', async () => {
    const owner = await newUser('raiser');
    const fundraiser = await createFundraiser(owner, { publish: true });
    const empty = await owner.get(`/api/fundraisers/${fundraiser.id}/transactions`);
    expect(fundraiserTransactionsSchema.parse(empty.json)).toEqual({ results: [], totalCount: 0 });

    for (const [index, donationCents] of [1000, 2500, 700].entries()) {
      const donation = { fundraiserId: fundraiser.id, email: `fan${index}@example.org`, name: `Fan ${index}` };
      // The last is never paid: it is no donation yet.
      if (index === 2) await startDonation(server, { ...donation, donationCents, tipCents: 100 });
      else await donate(server, { ...donation, donationCents, tipCents: 100 });
    }
    const list = fundraiserTransactionsSchema.parse(
      (await owner.get(`/api/fundraisers/${fundraiser.id}/transactions?page=0&page_size=1`)).json,
    );
    expect(list.totalCount).toBe(2);
    expect(list.results).toEqual([
      expect.objectContaining({ name: 'Fan 1', email: 'fan1@example.org', amountCents: 2500, tipCents: 100 }),
    ]);
    expect((await admin.get(`/api/fundraisers/${fundraiser.id}/transactions`)).status).toBe(200);
    const other = await newUser('nosy');
    expect((await other.get(`/api/fundraisers/${fundraiser.id}/transactions`)).status).toBe(403);
    expect((await server.client().get(`/api/fundraisers/${fundraiser.id}/transactions`)).status).toBe(401);

    const publicView = fundraiserSchema.parse((await server.client().get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(publicView).toMatchObject({ totalRaised: 3500, donationCount: 2 });
  });
});

describe('POST /api/uploads/track', () => {
  it('takes WAV and MP3 by their content and refuses anything else', async () => {
    const client = await newUser('uploader');
    expect(await uploadTrack(client, wav())).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(await uploadTrack(client, mp3Frames(), 'song.mp3')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const id3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 2, 1]), Buffer.alloc(500)]);
    const bareId3 = await client.post('/api/uploads/track', {
      multipart: fileForm('ID3', 'fake.mp3', 'audio/mpeg', 'trackFile'),
    });
    expect(bareId3.status).toBe(400);
    expect(await uploadTrack(client, id3, 'tagged.mp3')).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const fake = await client.post('/api/uploads/track', {
      multipart: fileForm(await png(), 'song.wav', 'audio/wav', 'trackFile'),
    });
    expect(fake.status).toBe(400);
    expect(fake.json).toEqual({ code: 'OTHER', message: 'File type must be one of the following: wav, mp3, mpeg' });
    const wrongField = await client.post('/api/uploads/track', { multipart: imageForm(wav(), 'a.wav', 'audio/wav') });
    expect(wrongField.status).toBe(400);
    expect(
      (
        await server
          .client()
          .post('/api/uploads/track', { multipart: fileForm(wav(), 'a.wav', 'audio/wav', 'trackFile') })
      ).status,
    ).toBe(401);
  });

  it('refuses a file over 150 MB with 413', async () => {
    const client = await newUser('big-uploader');
    const huge = Buffer.alloc(150 * 1024 * 1024 + 10);
    huge.write('RIFF', 0, 'latin1');
    huge.write('WAVE', 8, 'latin1');
    const response = await client.post('/api/uploads/track', {
      multipart: fileForm(huge, 'huge.wav', 'audio/wav', 'trackFile'),
    });
    expect(response.status).toBe(413);
    expect(response.json).toEqual({ code: 'OTHER', message: 'File must be less than 150 MB' });
    // The rest of the body is not read: no next request may go on this connection.
    expect(response.headers.get('connection')).toBe('close');
  });
});

// Keeps `uploadImage` meaningful here: a cover is an image upload like an artist's picture.
it('uses image uploads as album covers', async () => {
  const owner = await newUser('cover');
  const cover = await uploadImage(owner);
  const fundraiser = await createFundraiser(owner, { uploads: { ...(await uploadMusic(owner, 1)), cover } });
  expect(fundraiser.albumCover).toBe(cover);
});

describe('cleaning up audio uploads', () => {
  it('removes day-old tracks nothing uses and stray files, keeping what a fundraiser uses', async () => {
    const owner = await newUser('cleaner');
    const fundraiser = await createFundraiser(owner);
    const unused = await uploadTrack(owner);
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    server.db.update(uploads).set({ createdAt: dayAgo }).run();
    const stray = server.media.trackFile('strayStrayStrayStray00', 'wav');
    fs.writeFileSync(stray, wav());
    fs.utimesSync(stray, dayAgo, dayAgo);

    await cleanupUnusedUploads(server);
    expect(fs.existsSync(server.media.trackFile(unused, 'wav'))).toBe(false);
    expect(server.db.select().from(uploads).where(eq(uploads.id, unused)).get()).toBeUndefined();
    expect(fs.existsSync(stray)).toBe(false);
    const used = [fundraiser.previewTrackFile!, ...fundraiser.tracksList.map((track) => track.uploadId!)];
    for (const id of used) expect(fs.existsSync(server.media.trackFile(id, 'wav'))).toBe(true);
    expect(
      (
        await fetch(`${server.baseUrl}/api/fundraisers/${fundraiser.id}/preview`, {
          headers: { cookie: owner.cookieHeader() },
        })
      ).status,
    ).toBe(200);
  });
});

describe('GET /api/fundraisers/{id}/download', () => {
  it('streams the album as a zip of the originals, numbered in album order, for the owner and admins', async () => {
    const owner = await newUser('downloader');
    const fundraiser = await createFundraiser(owner, { publish: true, tracks: 2 });
    const [first, second] = fundraiser.tracksList;
    // Published, so only an admin reorders it now; the names need making safe for a file system.
    await admin.patch('/api/fundraisers/music', {
      json: {
        id: fundraiser.id,
        albumCover: fundraiser.albumCover,
        previewTrackName: '',
        previewTrackFile: fundraiser.previewTrackFile,
        trackList: [
          { id: second!.id, name: 'AC/DC: "Back"?', file: second!.uploadId },
          { id: first!.id, name: 'Opener', file: first!.uploadId },
        ],
      },
    });
    const response = await fetch(`${server.baseUrl}/api/fundraisers/${fundraiser.id}/download`, {
      headers: { cookie: owner.cookieHeader() },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''Songs%20for%20the%20Red%20Cross.zip",
    );
    const zip = Buffer.from(await response.arrayBuffer());
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    const text = zip.toString('latin1');
    const firstEntry = text.indexOf('01 - AC_DC_ _Back_.wav');
    const secondEntry = text.indexOf('02 - Opener.wav');
    expect(firstEntry).toBeGreaterThan(0);
    expect(secondEntry).toBeGreaterThan(firstEntry);
    // Stored as uploaded: each original WAV is inside byte for byte.
    expect(zip.includes(wav({ seconds: 1, frequency: 300 }))).toBe(true);

    expect((await admin.get(`/api/fundraisers/${fundraiser.id}/download`)).status).toBe(200);
    expect((await server.client().get(`/api/fundraisers/${fundraiser.id}/download`)).status).toBe(401);
    expect((await (await newUser('not-a-buyer')).get(`/api/fundraisers/${fundraiser.id}/download`)).status).toBe(403);
  });

  it('answers a legacy fundraiser’s uploaded zip as it is', async () => {
    const owner = await newUser('legacy-downloader');
    const fundraiser = await createFundraiser(owner);
    server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, fundraiser.id)).run();
    expect((await owner.get(`/api/fundraisers/${fundraiser.id}/download`)).status).toBe(404);
    const zipBytes = craftedZip([{ name: '01 Old song.wav', data: wav() }]);
    const form = new FormData();
    for (const [name, value] of Object.entries({
      ...details,
      charityEin: fundraiser.charityEin,
      donationMinimumCents: '500',
      fundraisingGoalCents: '100000',
      albumCover: fundraiser.albumCover ?? '',
      previewTrackName: '',
      previewTrackFile: fundraiser.previewTrackFile ?? '',
      trackList: JSON.stringify(['Old song']),
    }))
      form.append(name, value);
    form.append('albumZip', new Blob([new Uint8Array(zipBytes)], { type: 'application/zip' }), 'album.zip');
    expect((await owner.patch(`/api/fundraisers/${fundraiser.id}/updatev1`, { multipart: form })).status).toBe(200);
    const response = await fetch(`${server.baseUrl}/api/fundraisers/${fundraiser.id}/download`, {
      headers: { cookie: owner.cookieHeader() },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(zipBytes.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(zipBytes)).toBe(true);
  });
});
