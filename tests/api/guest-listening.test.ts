import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { donations, fundraiserTracks, purchases } from '../../server/db/schema';
import { type Fundraiser } from '../../shared/answers/fundraisers';
import { type GrantedTrack, purchaseLinkSchema, transactionSummarySchema } from '../../shared/answers/donations';
import { trackUrls } from '../../shared/answers/library';
import { apiErrorSchema } from '../../shared/answers/api';
import { donate } from '../fixtures/donations';
import { createFundraiser } from '../fixtures/fundraisers';
import { type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// A guest's album at once (issue 22; DESIGN.md "Contract details for wave 3", corrections): the
// receipt's page and the success page hand out the album's tracks with stream URLs that carry a
// signed, expiring, track-scoped grant, so a buyer without an account plays them (Range and all)
// and downloads the zip; a grant opens nothing else, and nothing once it has expired. A receipt's
// link that never was is "not valid"; only one that ran out is "expired" (both 404, DESIGN.md).

const server = useTestServer();
let guest: TestClient;
/** Published, two tracks; bought by `buyerEmail` as a guest. */
let album: Fundraiser;
/** Another album of the same owner, nobody's purchase. */
let other: Fundraiser;
const buyerEmail = 'guest-listener@example.org';
let paymentIntentId = '';
let token = '';

const donationRow = () =>
  server.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)).get()!;
const purchaseRow = () => server.db.select().from(purchases).where(eq(purchases.donationId, donationRow().id)).get()!;

/** GET or HEAD without any cookie, the body as bytes (MP3 frames would not survive as text). */
async function fetchBytes(pathname: string, headers: Record<string, string> = {}, method = 'GET') {
  const response = await fetch(`${server.baseUrl}${pathname}`, { method, headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

const streamBytes = (trackId: number) => {
  const row = server.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, trackId)).get()!;
  return fs.readFileSync(server.media.streamFile(row.streamFile!));
};

const purchaseAnswer = async () => {
  const answer = await guest.get(`/api/purchases/${token}`);
  expect(answer.status, answer.text).toBe(200);
  return purchaseLinkSchema.parse(answer.json);
};

const summary = async () => {
  const answer = await guest.get(`/api/transactions/query?paymentIntentId=${paymentIntentId}`);
  expect(answer.status, answer.text).toBe(200);
  return transactionSummarySchema.parse(answer.json);
};

/** The grant a granted URL carries, and the moment it ends. */
function grantOf(src: string) {
  const grant = new URL(src, server.baseUrl).searchParams.get('grant')!;
  return { grant, expiresAt: Number(grant.split('.')[1]) * 1000 };
}

/** `src` with its grant replaced. */
const withGrant = (src: string, grant: string) => {
  const url = new URL(src, server.baseUrl);
  url.searchParams.set('grant', grant);
  return `${url.pathname}${url.search}`;
};

const refusal = async (pathname: string) => {
  const response = await fetchBytes(pathname, { range: 'bytes=0-99' });
  return { status: response.status, message: apiErrorSchema.parse(JSON.parse(response.body.toString())).message };
};

beforeAll(async () => {
  const owner = await verifiedUser(server, 'guest-album-owner@example.org');
  album = await createFundraiser(owner, { publish: true, tracks: 2, details: { name: 'Heard at Once' } });
  other = await createFundraiser(owner, { publish: true, tracks: 1, details: { name: 'Not Bought' } });
  await server.jobs.drain();
  guest = server.client();
  ({ paymentIntentId } = await donate(server, {
    fundraiserId: album.id,
    email: buyerEmail,
    donationCents: 2500,
  }));
  await server.jobs.drain();
  const receipt = server.outbox
    .messages(buyerEmail)
    .at(-1)!
    .replace(/=\r?\n/g, '');
  token = receipt.match(/\/purchases\/([A-Za-z0-9_-]{43})/)![1]!;
}, 120_000);

describe('GET /api/purchases/{token}', () => {
  it("adds the album's tracks with granted stream URLs, and the buyer's address", async () => {
    const link = await purchaseAnswer();
    expect(link.email).toBe(buyerEmail);
    expect(link.tracks.map(({ id, name }) => ({ id, name }))).toEqual(
      album.tracksList.map(({ id, name }) => ({ id, name })),
    );
    for (const track of link.tracks) {
      expect(track.durationSeconds).toBeGreaterThan(0);
      expect(track.src).toMatch(new RegExp(`^/api/tracks/${track.id}/stream\\?v=[^&]+&grant=`));
      // The purchase token never travels in a media URL.
      expect(track.src).not.toContain(token);
      // The grant lasts as long as the link does.
      expect(grantOf(track.src).expiresAt).toBe(Math.floor(Date.parse(link.expiresAt) / 1000) * 1000);
    }
  });

  it('streams a granted src with no session: a Range answers 206 with those bytes, HEAD the headers', async () => {
    const [track] = (await purchaseAnswer()).tracks as [GrantedTrack];
    const bytes = streamBytes(track.id);
    const partial = await fetchBytes(track.src, { range: 'bytes=100-1099' });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe(`bytes 100-1099/${bytes.length}`);
    expect(partial.body.equals(bytes.subarray(100, 1100))).toBe(true);
    // As every bought stream: the buyer's browser may keep it, for good under its version.
    expect(partial.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    const whole = await fetchBytes(track.src);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(bytes)).toBe(true);
    const head = await fetchBytes(track.src, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.length));
    // The same address without its grant is a guest's like any other: log in first.
    const bare = new URL(track.src, server.baseUrl);
    bare.searchParams.delete('grant');
    expect((await fetchBytes(`${bare.pathname}${bare.search}`)).status).toBe(401);
  });

  it('refuses a grant that was tampered with, is for another track or album, or has expired', async () => {
    const [first, second] = (await purchaseAnswer()).tracks as [GrantedTrack, GrantedTrack];
    const { grant } = grantOf(first.src);
    const [purchaseId, expires, signature] = grant.split('.') as [string, string, string];
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const notValid = { status: 403, message: 'This link is not valid.' };
    // A changed signature, a later expiry, another purchase: none was signed here.
    expect(await refusal(withGrant(first.src, `${purchaseId}.${expires}.${flipped}`))).toEqual(notValid);
    expect(await refusal(withGrant(first.src, `${purchaseId}.${Number(expires) + 86_400}.${signature}`))).toEqual(
      notValid,
    );
    expect(await refusal(withGrant(first.src, `${Number(purchaseId) + 1}.${expires}.${signature}`))).toEqual(notValid);
    for (const garbage of ['', 'x', `${purchaseId}.${expires}`, `${grant}.1`, `-1.${expires}.${signature}`]) {
      expect(await refusal(withGrant(first.src, garbage))).toEqual(notValid);
    }
    // One track's grant opens that track only: not the album's next one, nor another album's.
    expect(await refusal(withGrant(second.src, grant))).toEqual(notValid);
    const otherTrack = other.tracksList[0]!;
    const otherRow = server.db.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, otherTrack.id)).get()!;
    const otherSrc = trackUrls.stream(otherTrack.id, otherRow.streamFile!.replace(/\.mp3$/, ''));
    expect(await refusal(`${otherSrc}&grant=${encodeURIComponent(grant)}`)).toEqual(notValid);
    // Nor the album's download.
    expect((await fetchBytes(`/api/fundraisers/${album.id}/download?grant=${encodeURIComponent(grant)}`)).status).toBe(
      403,
    );

    // Signed here for this very track, but past its time.
    const expired = server.deps.urlGrants.sign(
      { kind: 'track', trackId: first.id },
      purchaseRow().id,
      new Date(Date.now() - 1000),
    );
    expect(await refusal(withGrant(first.src, expired))).toEqual({
      status: 403,
      message: 'This link has expired. Open the link in your receipt again, or log in to Your music.',
    });
  });

  it('says an unknown link is not valid and only an expired one has expired (both 404)', async () => {
    const unknown = await guest.get(`/api/purchases/${'x'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(apiErrorSchema.parse(unknown.json).message).toMatch(/not valid/);
    const malformed = await guest.get('/api/purchases/too-short');
    expect(malformed.status).toBe(404);
    expect((await guest.get(`/api/purchases/${'x'.repeat(43)}/download`)).status).toBe(404);

    const expiresAt = purchaseRow().downloadExpiresAt;
    server.db
      .update(purchases)
      .set({ downloadExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(purchases.id, purchaseRow().id))
      .run();
    try {
      const expired = await guest.get(`/api/purchases/${token}`);
      expect(expired.status).toBe(404);
      expect(apiErrorSchema.parse(expired.json).message).toMatch(/expired/);
      expect((await guest.get(`/api/purchases/${token}/download`)).status).toBe(404);
    } finally {
      server.db.update(purchases).set({ downloadExpiresAt: expiresAt }).where(eq(purchases.id, purchaseRow().id)).run();
    }
    expect((await guest.get(`/api/purchases/${token}`)).status).toBe(200);
  });
});

describe('GET /api/transactions/query', () => {
  it('adds the charity, the minimum, the tracks and the download, granted for a day after the payment', async () => {
    const answer = await summary();
    expect(answer).toMatchObject({
      donationCents: 2500,
      minimumCents: 500,
      taxDeductibleCents: 2000,
      charity: { name: 'American National Red Cross', ein: album.charityEin },
      project: { id: album.id, urlSlug: album.urlSlug, name: 'Heard at Once' },
    });
    expect(answer.tracks.map((track) => track.id)).toEqual(album.tracksList.map((track) => track.id));
    const paidAt = donationRow().succeededAt!.getTime();
    for (const track of answer.tracks) {
      expect(grantOf(track.src).expiresAt).toBe(Math.floor((paidAt + 24 * 60 * 60 * 1000) / 1000) * 1000);
      expect(track.src).not.toContain(paymentIntentId);
    }
    const [track] = answer.tracks as [GrantedTrack];
    const partial = await fetchBytes(track.src, { range: 'bytes=0-9' });
    expect(partial.status).toBe(206);
    expect(partial.body.equals(streamBytes(track.id).subarray(0, 10))).toBe(true);

    // The download: the album's zip, with no session, under the same grant.
    expect(answer.downloadUrl).toMatch(new RegExp(`^/api/fundraisers/${album.id}/download\\?grant=`));
    const zip = await fetchBytes(answer.downloadUrl!);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toContain('Heard%20at%20Once.zip');
    // Without the grant, the download is an account's.
    expect((await fetchBytes(`/api/fundraisers/${album.id}/download`)).status).toBe(401);
  });

  it('gives nothing to play or download once the day is over', async () => {
    const succeededAt = donationRow().succeededAt!;
    server.db
      .update(donations)
      .set({ succeededAt: new Date(Date.now() - 24 * 60 * 60 * 1000 - 1000) })
      .where(eq(donations.id, donationRow().id))
      .run();
    try {
      const answer = await summary();
      expect(answer.tracks).toEqual([]);
      expect(answer.downloadUrl).toBeNull();
      // The summary itself stays.
      expect(answer.donationCents).toBe(2500);
    } finally {
      server.db.update(donations).set({ succeededAt }).where(eq(donations.id, donationRow().id)).run();
    }
  });

  it('gives a gift to the platform no album and no charity', async () => {
    const gift = await donate(server, { fundraiserId: null, email: buyerEmail, donationCents: 0, tipCents: 500 });
    const answer = transactionSummarySchema.parse(
      (await guest.get(`/api/transactions/query?paymentIntentId=${gift.paymentIntentId}`)).json,
    );
    expect(answer).toMatchObject({ project: null, charity: null, tracks: [], downloadUrl: null, minimumCents: 0 });
  });
});
