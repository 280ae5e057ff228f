import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type Fundraiser, fundraiserSchema, fundraiserSearchResultSchema } from '../../shared/answers/fundraisers';
import { OTHERS_CHECK_MS, scopesWritten } from '../../server/db/changes';
import { findLiveSession, SESSION_TTL_MS } from '../../server/infra/security/session-store';
import { donate } from '../fixtures/donations';
import { createArtist, createFundraiser, editFormOf } from '../fixtures/fundraisers';
import { adminClient, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// The public fundraiser and artist JSON, and sessions, are kept between requests (issue 13,
// server/db/cache.ts). Every write that changes them shows on the next request, and nothing
// that depends on who asks is ever handed to someone else.

const server = useTestServer();
let owner: TestClient;
let admin: TestClient;
let visitor: TestClient;
let fundraiser: Fundraiser;

const pageOf = async (client: TestClient, slug = fundraiser.urlSlug!) => {
  const answer = await client.get(`/api/fundraisers/slug/${slug}`);
  expect(answer.status, answer.text).toBe(200);
  return fundraiserSchema.parse(answer.json);
};

beforeAll(async () => {
  owner = await verifiedUser(server, 'cache-owner@example.org');
  admin = await adminClient(server, 'cache-admin@example.org');
  visitor = server.client();
  fundraiser = await createFundraiser(owner, { publish: true });
  await server.jobs.drain();
});

describe('the public fundraiser cache', () => {
  it('shows a donation in the totals at once', async () => {
    const before = await pageOf(visitor);
    await donate(server, { fundraiserId: fundraiser.id, email: 'cache-fan@example.org', donationCents: 2500 });
    const after = await pageOf(visitor);
    expect(after.totalRaised).toBe((before.totalRaised ?? 0) + 2500);
    expect(after.donationCount).toBe(before.donationCount + 1);
    // By id too (the page's other address is kept apart).
    const byId = fundraiserSchema.parse((await visitor.get(`/api/fundraisers/${fundraiser.id}`)).json);
    expect(byId.totalRaised).toBe(after.totalRaised);
  });

  it("shows an admin's edit and the artist's new name at once", async () => {
    await pageOf(visitor);
    const current = fundraiserSchema.parse((await admin.get(`/api/fundraisers/${fundraiser.id}`)).json);
    const edit = await admin.patch(`/api/fundraisers/${fundraiser.id}/update`, {
      json: editFormOf(current, { description: 'Now with a new description.' }),
    });
    expect(edit.status, edit.text).toBe(200);
    expect((await pageOf(visitor)).description).toBe('Now with a new description.');

    const renamed = await owner.patch(`/api/artists/${fundraiser.artistId}/update`, {
      json: { name: 'The Renamed Band', description: 'Songs about caching.' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await pageOf(visitor)).artist.name).toBe('The Renamed Band');
  });

  it("never hands what is the caller's own to anyone else, whoever asks first", async () => {
    const first = await pageOf(visitor);
    expect(first.canManage).toBe(false);
    expect(first.tracksList.every((track) => track.uploadId === undefined && track.file === undefined)).toBe(true);

    const asOwner = await pageOf(owner);
    expect(asOwner.canManage).toBe(true);
    expect(asOwner.tracksList.every((track) => track.uploadId !== undefined && track.file !== undefined)).toBe(true);

    // A buyer hears the full tracks; a signed-in fan who did not buy gets the visitor's page.
    const buyer = await verifiedUser(server, 'cache-buyer@example.org');
    const fan = await verifiedUser(server, 'cache-nonbuyer@example.org');
    await donate(server, { fundraiserId: fundraiser.id, email: 'cache-buyer@example.org' });
    const bought = await pageOf(buyer);
    expect(bought.canManage).toBe(false);
    expect(bought.tracksList.every((track) => track.file !== undefined && track.uploadId === undefined)).toBe(true);
    const asFan = await pageOf(fan);
    expect(asFan.canManage).toBe(false);
    expect(asFan.tracksList.every((track) => track.file === undefined)).toBe(true);

    const again = await pageOf(visitor);
    expect(again.canManage).toBe(false);
    expect(again.tracksList.every((track) => track.uploadId === undefined && track.file === undefined)).toBe(true);
  });

  it('forgets a deleted fundraiser at once, and keeps a draft from visitors after its owner saw it', async () => {
    const draft = await createFundraiser(owner);
    expect((await pageOf(owner, draft.urlSlug)).status).toBe('DRAFT');
    expect((await visitor.get(`/api/fundraisers/slug/${draft.urlSlug}`)).status).toBe(404);
    expect((await visitor.get(`/api/fundraisers/${draft.id}`)).status).toBe(404);

    const doomed = await createFundraiser(owner, { publish: true });
    await pageOf(visitor, doomed.urlSlug);
    expect((await admin.delete(`/api/fundraisers/${doomed.id}`)).status).toBe(200);
    expect((await visitor.get(`/api/fundraisers/slug/${doomed.urlSlug}`)).status).toBe(404);
  });

  it("shows writes made outside the app's queries: at once on its own connection, soon after another process's", async () => {
    await pageOf(visitor);
    server.sqlite.prepare('UPDATE fundraisers SET share_count = 41 WHERE id = ?').run(fundraiser.id);
    expect((await pageOf(visitor)).shareCount).toBe(41);

    const other = new Database(server.config.databasePath);
    try {
      other.prepare('UPDATE fundraisers SET share_count = 42 WHERE id = ?').run(fundraiser.id);
    } finally {
      other.close();
    }
    // Another process's writes are looked for every OTHERS_CHECK_MS.
    await expect.poll(async () => (await pageOf(visitor)).shareCount, { timeout: 5 * OTHERS_CHECK_MS }).toBe(42);
  });
});

describe('the public lists: featured, browse and search (issue 24)', () => {
  const searchOf = async (client: TestClient, query: string) => {
    const answer = await client.get(`/api/fundraisers/search?${query}`);
    expect(answer.status, answer.text).toBe(200);
    return fundraiserSearchResultSchema.parse(answer.json);
  };
  const featuredOf = async (client: TestClient) => {
    const answer = await client.get('/api/fundraisers/featured');
    expect(answer.status, answer.text).toBe(200);
    return z.array(fundraiserSchema).parse(answer.json);
  };
  const mine = (list: Fundraiser[]) => list.find((item) => item.id === fundraiser.id)!;

  it("shows a donation, a publish and an edit at once, and never hands the owner's or a buyer's view to anyone else", async () => {
    const before = mine((await searchOf(visitor, 'searchTerm=')).results);
    const featuredBefore = mine(await featuredOf(visitor));
    await donate(server, { fundraiserId: fundraiser.id, email: 'list-fan@example.org', donationCents: 1200 });
    expect(mine((await searchOf(visitor, 'searchTerm=')).results).totalRaised).toBe((before.totalRaised ?? 0) + 1200);
    expect(mine(await featuredOf(visitor)).totalRaised).toBe((featuredBefore.totalRaised ?? 0) + 1200);

    const total = (await searchOf(visitor, 'searchTerm=')).totalCount;
    const another = await createFundraiser(owner, { publish: true, details: { name: 'Freshly Published' } });
    expect((await searchOf(visitor, 'searchTerm=')).totalCount).toBe(total + 1);
    expect((await searchOf(visitor, 'searchTerm=Freshly')).results.map((item) => item.id)).toEqual([another.id]);

    // The owner sees theirs as theirs; a visitor, asking after them, sees the public answer.
    expect(mine((await searchOf(owner, 'searchTerm=')).results).canManage).toBe(true);
    const asVisitor = mine((await searchOf(visitor, 'searchTerm=')).results);
    expect(asVisitor.canManage).toBe(false);
    expect(asVisitor.tracksList.every((track) => track.uploadId === undefined && track.file === undefined)).toBe(true);
    expect(mine(await featuredOf(owner)).canManage).toBe(true);
    expect(mine(await featuredOf(visitor)).canManage).toBe(false);
    // A buyer gets the full tracks of what they bought; a fan who did not gets the public answer.
    const buyer = await verifiedUser(server, 'list-buyer@example.org');
    await donate(server, { fundraiserId: fundraiser.id, email: 'list-buyer@example.org' });
    await server.jobs.drain();
    const bought = mine((await searchOf(buyer, 'searchTerm=')).results);
    expect(bought.canManage).toBe(false);
    expect(bought.tracksList.some((track) => track.file !== undefined)).toBe(true);
    expect(mine((await searchOf(visitor, 'searchTerm=')).results).tracksList.every((track) => !track.file)).toBe(true);
  });
});

describe('the public artist cache', () => {
  it('shows a rename at once, and keeps a draft artist from visitors after its owner saw it', async () => {
    const artist = await createArtist(owner, { name: 'The Cached Band' });
    expect((await owner.get(`/api/artists/slug/${artist.urlSlug}`)).status).toBe(200);
    expect((await visitor.get(`/api/artists/slug/${artist.urlSlug}`)).status).toBe(404);
    expect((await visitor.get(`/api/artists/${artist.id}`)).status).toBe(404);

    expect((await owner.patch(`/api/artists/${artist.id}/publish`)).status).toBe(200);
    const published = (await visitor.get(`/api/artists/slug/${artist.urlSlug}`)).json as {
      name: string;
      status: string;
    };
    expect(published).toMatchObject({ name: 'The Cached Band', status: 'PUBLISHED' });

    const renamed = await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'The Cached Band', description: 'A new description.' },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const after = (await visitor.get(`/api/artists/slug/${artist.urlSlug}`)).json as { description: string };
    expect(after.description).toBe('A new description.');
  });
});

describe('the session cache', () => {
  const sessionOf = (client: TestClient) => client.cookies.get('soundcause_session')!;
  const sameBrowser = (client: TestClient) => {
    const copy = server.client(client.ip);
    for (const [name, value] of client.cookies) copy.cookies.set(name, value);
    return copy;
  };

  it('forgets a session when it ends: at once on logout, soon after a write by another process', async () => {
    const fan = await verifiedUser(server, 'cache-session@example.org');
    const tab = sameBrowser(fan);
    expect((await tab.get('/api/user')).status).toBe(200);
    expect((await fan.post('/api/logout')).status).toBe(200);
    expect((await tab.get('/api/user')).status).toBe(401);

    const other = await verifiedUser(server, 'cache-session-2@example.org');
    expect((await other.get('/api/user')).status).toBe(200);
    const elsewhere = new Database(server.config.databasePath);
    try {
      elsewhere.prepare('DELETE FROM sessions').run();
    } finally {
      elsewhere.close();
    }
    await expect.poll(async () => (await other.get('/api/user')).status, { timeout: 5 * OTHERS_CHECK_MS }).toBe(401);
  });

  it("shows a change to the user at once, and checks the session's expiry on every use", async () => {
    const fan = await verifiedUser(server, 'cache-promoted@example.org');
    expect((await fan.get('/api/user')).json).toMatchObject({ isAdmin: false });
    await adminClient(server, 'cache-promoted@example.org');
    expect((await fan.get('/api/user')).json).toMatchObject({ isAdmin: true });

    const id = sessionOf(fan);
    expect(findLiveSession(server.db, id)).toBeDefined();
    expect(findLiveSession(server.db, id, Date.now() + SESSION_TTL_MS + 1000)).toBeUndefined();
  });
});

describe('what a statement may change', () => {
  it('knows the tables a write goes to; reads change nothing', () => {
    expect(scopesWritten('update "fundraisers" set "name" = ? where "id" = ?')).toEqual(['public']);
    expect(scopesWritten('insert into "donations" ("a") values (?) returning "id"')).toEqual(['public']);
    expect(scopesWritten('DELETE FROM users WHERE id = ?').sort()).toEqual(['public', 'sessions']);
    expect(scopesWritten('update "sessions" set "expires_at" = ?')).toEqual(['sessions']);
    expect(scopesWritten('INSERT OR IGNORE INTO throttle_events (key) VALUES (?)')).toEqual([]);
    expect(scopesWritten('select "updated_at", "id" from "fundraisers" where "id" = ?')).toEqual([]);
    // A table nobody has listed counts as public: stale pages are worse than an emptied cache.
    expect(scopesWritten('insert into "something_new" ("a") values (?)')).toEqual(['public']);
  });
});
