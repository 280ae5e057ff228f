import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fundraisers } from '../../server/db/schema';
import { artistSchema } from '../../shared/answers/artists';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { donate } from '../fixtures/donations';
import {
  CANCER_SOCIETY_EIN,
  createArtist,
  createFundraiser,
  editFormOf,
  RED_CROSS_EIN,
  uploadMusic,
} from '../fixtures/fundraisers';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// An admin's powers over other people's content (spec part 2 section 6; issue 11), end to end on
// one artist's fundraisers: edit any fundraiser whatever its status, change a published
// fundraiser's charity, publish or delete any fundraiser or artist, download the tracks, upgrade
// a legacy v1 fundraiser to streaming. Each power is tried first by a verified stranger, who is
// refused and changes nothing, then by the admin.

const server = useTestServer();
let admin: TestClient;
let owner: TestClient;
let stranger: TestClient;

beforeAll(async () => {
  admin = await adminClient(server, 'powers-admin@example.org');
  owner = await verifiedUser(server, 'powers-owner@example.org');
  stranger = await verifiedUser(server, 'powers-stranger@example.org');
});

const read = async (id: number) => fundraiserSchema.parse((await admin.get(`/api/fundraisers/${id}`)).json);

describe("an admin's powers over other people's content", () => {
  it("publishes someone else's draft fundraiser and its draft artist", async () => {
    const draft = await createFundraiser(owner, { details: { name: 'Awaiting Review' } });
    const publish = { json: { publishArtist: true } };
    expect((await stranger.patch(`/api/fundraisers/${draft.id}/publish`, publish)).status).toBe(404);
    expect((await read(draft.id)).status).toBe('DRAFT');

    const published = await admin.patch(`/api/fundraisers/${draft.id}/publish`, publish);
    expect(published.status, published.text).toBe(200);
    const after = await read(draft.id);
    expect(after.status).toBe('PUBLISHED');
    const artist = artistSchema.parse((await server.client().get(`/api/artists/${after.artist.id}`)).json);
    expect(artist.status).toBe('PUBLISHED');
  });

  it("edits someone else's draft and published fundraisers, and moves a published one to another charity", async () => {
    const draft = await createFundraiser(owner, { details: { name: 'Rough Cut' } });
    const refused = await stranger.patch(`/api/fundraisers/${draft.id}/update`, {
      json: editFormOf(draft, { name: 'Hijacked' }),
    });
    // A draft is invisible to anyone but its owner and admins.
    expect(refused.status).toBe(404);
    const edited = await admin.patch(`/api/fundraisers/${draft.id}/update`, {
      json: editFormOf(draft, { name: 'Final Cut', description: 'Tidied by an admin.' }),
    });
    expect(edited.status, edited.text).toBe(200);
    expect(await read(draft.id)).toMatchObject({ name: 'Final Cut', description: 'Tidied by an admin.' });

    const live = await createFundraiser(owner, { publish: true, details: { name: 'Live Album' } });
    expect(live.charityEin.replace('-', '')).toBe(RED_CROSS_EIN.replace('-', ''));
    await donate(server, { fundraiserId: live.id, email: 'early-fan@example.org', donationCents: 1500 });
    const ownerTry = await owner.patch(`/api/fundraisers/${live.id}/update`, {
      json: editFormOf(live, { charityEin: CANCER_SOCIETY_EIN }),
    });
    expect(ownerTry.status).toBe(403);
    const moved = await admin.patch(`/api/fundraisers/${live.id}/update`, {
      json: editFormOf(live, { charityEin: CANCER_SOCIETY_EIN }),
    });
    expect(moved.status, moved.text).toBe(200);
    const after = await read(live.id);
    expect(after).toMatchObject({
      status: 'PUBLISHED',
      supportedOrg: 'American Cancer Society',
      urlSlug: live.urlSlug,
    });
    // A donation already made stays with the charity it was made for: the ledger keeps its EIN.
    const ledger = (await server.client().get('/api/ledger')).json as { results: { ein: string }[] };
    expect(ledger.results.map((entry) => entry.ein)).toContain(RED_CROSS_EIN.replace('-', ''));
  });

  it("downloads the tracks of someone else's album, which a stranger cannot", async () => {
    const album = await createFundraiser(owner, { publish: true, tracks: 2, details: { name: 'Zip Me' } });
    expect((await stranger.get(`/api/fundraisers/${album.id}/download`)).status).toBe(403);
    const response = await fetch(`${server.baseUrl}/api/fundraisers/${album.id}/download`, {
      headers: { cookie: admin.cookieHeader() },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await response.arrayBuffer());
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    for (const track of album.tracksList) expect(zip.includes(Buffer.from(track.name))).toBe(true);
  });

  it('upgrades a legacy v1 fundraiser to streaming', async () => {
    const legacy = await createFundraiser(owner, { publish: true, details: { name: 'Old Times' } });
    server.db.update(fundraisers).set({ hasV1Tracks: true }).where(eq(fundraisers.id, legacy.id)).run();
    const before = await read(legacy.id);
    expect(before.hasV1Tracks).toBe(true);
    expect((await stranger.patch(`/api/fundraisers/${legacy.id}/update`, { json: editFormOf(before) })).status).toBe(
      403,
    );
    expect((await owner.patch(`/api/fundraisers/${legacy.id}/update`, { json: editFormOf(before) })).status).toBe(403);
    const upgraded = await admin.patch(`/api/fundraisers/${legacy.id}/update`, { json: editFormOf(before) });
    expect(upgraded.status, upgraded.text).toBe(200);
    expect((await read(legacy.id)).hasV1Tracks).toBe(false);
  });

  it("deletes someone else's fundraiser and artist, keeping the donations", async () => {
    const uploads = await uploadMusic(owner, 1);
    const artist = await createArtist(owner, { name: 'Leaving Soon' });
    const first = await createFundraiser(owner, { artistId: artist.id, uploads, publish: true });
    const second = await createFundraiser(owner, { artistId: artist.id, uploads, publish: true });
    await donate(server, { fundraiserId: first.id, email: 'kept@example.org', donationCents: 2000 });

    expect((await stranger.delete(`/api/fundraisers/${first.id}`)).status).toBe(403);
    expect((await stranger.delete(`/api/artists/${artist.id}`)).status).toBe(403);
    expect((await server.client().get(`/api/fundraisers/${first.id}`)).status).toBe(200);

    expect((await admin.delete(`/api/fundraisers/${first.id}`)).status).toBe(200);
    expect((await server.client().get(`/api/fundraisers/${first.id}`)).status).toBe(404);
    expect((await server.client().get(`/api/fundraisers/${second.id}`)).status).toBe(200);
    expect((await admin.delete(`/api/artists/${artist.id}`)).status).toBe(200);
    expect((await server.client().get(`/api/artists/${artist.id}`)).status).toBe(404);
    expect((await server.client().get(`/api/fundraisers/${second.id}`)).status).toBe(404);

    // The money stays on the books: the donation is still an admin's transaction.
    const transactions = (await admin.get('/api/admin/transactions?page=0')).json as {
      results: { email: string; projectId: number }[];
    };
    expect(transactions.results).toContainEqual(
      expect.objectContaining({ email: 'kept@example.org', projectId: first.id }),
    );
  });
});
