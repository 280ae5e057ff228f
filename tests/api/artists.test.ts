import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { artistListSchema, artistSchema, artistSearchResultSchema } from '../../shared/answers/artists';
import { artists } from '../../server/db/schema';
import { imageForm, png } from '../fixtures/images';
import { adminClient, fieldErrors, registerUser, type TestClient, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

const server = useTestServer();
let admin: TestClient;
beforeAll(async () => {
  admin = await adminClient(server);
});

let counter = 0;
const nextEmail = (label: string) => `${label}-${++counter}@example.org`;

async function uploadImage(client: TestClient): Promise<string> {
  const response = await client.post('/api/uploads/image', {
    multipart: imageForm(await png(), 'face.png', 'image/png'),
  });
  return (response.json as { id: string }).id;
}

async function createArtist(client: TestClient, fields: Partial<Record<string, string>> = {}) {
  const response = await client.post('/api/artists/new', {
    json: {
      name: 'The Test Band',
      description: 'Songs about testing.',
      website: 'https://band.example.org',
      profileImage: await uploadImage(client),
      ...fields,
    },
  });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
  return artistSchema.parse(response.json);
}

describe('POST /api/artists/new', () => {
  it('creates a draft with a readable slug and the image renditions', async () => {
    const owner = await verifiedUser(server, nextEmail('creator'));
    const artist = await createArtist(owner, { name: 'Beyoncé & The Testers!' });
    expect(artist).toMatchObject({
      name: 'Beyoncé & The Testers!',
      status: 'DRAFT',
      isPublishable: true,
      publishedAt: null,
      urlSlug: 'beyonce-and-the-testers',
      website: 'https://band.example.org',
    });
    expect(artist.image).toBe(`/media/images/${artist.profileImage}-400.jpg`);
    expect((await fetch(`${server.baseUrl}${artist.image}`)).status).toBe(200);
    const again = await createArtist(owner, { name: 'Beyonce and the testers' });
    expect(again.urlSlug).toBe('beyonce-and-the-testers-2');
    expect((await createArtist(owner, { name: 'Мумий Тролль' })).urlSlug).toBe('мумий-тролль');
    expect((await createArtist(owner, { name: 'Łódź Ørkestra' })).urlSlug).toBe('lodz-orkestra');
    expect((await createArtist(owner, { name: '1999' })).urlSlug).toBe('n-1999');
    const byUnicodeSlug = await owner.get(`/api/artists/slug/${encodeURIComponent('мумий-тролль')}`);
    expect(artistSchema.parse(byUnicodeSlug.json).name).toBe('Мумий Тролль');
  });

  it('needs a session and a verified email', async () => {
    expect((await server.client().post('/api/artists/new', { json: {} })).status).toBe(401);
    const unverified = server.client();
    await registerUser(unverified, nextEmail('unverified'));
    const response = await unverified.post('/api/artists/new', {
      json: { name: 'X', description: 'Y', profileImage: await uploadImage(unverified) },
    });
    expect(response.status).toBe(403);
    expect(server.db.select().from(artists).where(eq(artists.name, 'X')).get()).toBeUndefined();
  });

  it("answers invalid input with the spec's messages on their fields", async () => {
    const owner = await verifiedUser(server, nextEmail('invalid'));
    const missing = await owner.post('/api/artists/new', { json: { name: ' ', description: '' } });
    expect(missing.status).toBe(400);
    expect(fieldErrors(missing.json)).toEqual({
      name: 'Name is required.',
      description: 'Description is required.',
      profileImage: 'Profile image is required.',
    });
    const tooLong = await owner.post('/api/artists/new', {
      json: {
        name: 'n'.repeat(101),
        description: 'd'.repeat(3001),
        website: 'www.example.org',
        profileImage: 'x'.repeat(201),
      },
    });
    expect(fieldErrors(tooLong.json)).toEqual({
      name: 'Name cannot exceed 100 character(s).',
      description: 'Description cannot exceed 3000 character(s).',
      website: 'URL must start with either http:// or https://',
      profileImage: 'Profile image cannot exceed 200 character(s).',
    });
    const badUrl = await owner.post('/api/artists/new', {
      json: { name: 'A', description: 'B', website: 'https://not a url', profileImage: 'x' },
    });
    expect(fieldErrors(badUrl.json).website).toBe('Please enter a valid url.');
    const longUrl = await owner.post('/api/artists/new', {
      json: { name: 'A', description: 'B', website: `https://e.org/${'a'.repeat(400)}`, profileImage: 'x' },
    });
    expect(fieldErrors(longUrl.json).website).toBe('Website cannot exceed 400 character(s).');
  });

  it("refuses someone else's or an unknown upload id as no longer available (tests/api/file-no-longer-available)", async () => {
    const stranger = await verifiedUser(server, nextEmail('stranger'));
    const theirs = await uploadImage(stranger);
    const owner = await verifiedUser(server, nextEmail('borrower'));
    for (const profileImage of [theirs, 'no-such-upload']) {
      const response = await owner.post('/api/artists/new', { json: { name: 'A', description: 'B', profileImage } });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 'FILE_NO_LONGER_AVAILABLE', field: 'profileImage' });
    }
  });
});

describe('reading artists', () => {
  it('shows a draft only to its owner and admins, and a published artist to everyone', async () => {
    const owner = await verifiedUser(server, nextEmail('reader-owner'));
    const draft = await createArtist(owner, { name: 'Secret Draft' });
    const other = await verifiedUser(server, nextEmail('reader-other'));
    for (const path of [`/api/artists/${draft.id}`, `/api/artists/slug/${draft.urlSlug}`]) {
      expect((await owner.get(path)).status).toBe(200);
      expect((await admin.get(path)).status).toBe(200);
      expect((await other.get(path)).status).toBe(404);
      expect((await server.client().get(path)).status).toBe(404);
    }
    await owner.request('PATCH', `/api/artists/${draft.id}/publish`);
    for (const path of [`/api/artists/${draft.id}`, `/api/artists/slug/${draft.urlSlug}`]) {
      const response = await server.client().get(path);
      expect(response.status).toBe(200);
      expect(artistSchema.parse(response.json)).toMatchObject({ status: 'PUBLISHED', name: 'Secret Draft' });
    }
    expect((await server.client().get('/api/artists/abc')).status).toBe(404);
    expect((await server.client().get('/api/artists/999999')).status).toBe(404);
  });

  it("lists the user's own artists only", async () => {
    const owner = await verifiedUser(server, nextEmail('lister'));
    await createArtist(owner, { name: 'Mine One' });
    await createArtist(owner, { name: 'Mine Two' });
    const mine = (await owner.get('/api/artists/user')).json as { name: string }[];
    expect(mine.map((artist) => artist.name).sort()).toEqual(['Mine One', 'Mine Two']);
    expect((await server.client().get('/api/artists/user')).status).toBe(401);
  });
});

describe('changing artists', () => {
  it('lets the owner edit; the slug follows the name while a draft, and stays once published', async () => {
    const owner = await verifiedUser(server, nextEmail('editor'));
    const artist = await createArtist(owner, { name: 'Old Name' });
    const renamed = await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'New Name', description: 'Changed.', website: '' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toEqual({ urlSlug: 'new-name' });
    const read = artistSchema.parse((await owner.get(`/api/artists/${artist.id}`)).json);
    expect(read).toMatchObject({ name: 'New Name', description: 'Changed.', profileImage: artist.profileImage });
    expect(read.website).toBeUndefined();

    await owner.request('PATCH', `/api/artists/${artist.id}/publish`);
    const again = await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'Newest Name', description: 'Changed.', profileImage: await uploadImage(owner) },
    });
    expect(again.json).toEqual({ urlSlug: 'new-name' });
  });

  it("refuses guests and unverified users, and lets an admin publish someone else's draft", async () => {
    const owner = await verifiedUser(server, nextEmail('draft-owner'));
    const artist = await createArtist(owner, { name: 'Admin Publishes Me' });
    const guest = server.client();
    expect((await guest.request('PATCH', `/api/artists/${artist.id}/publish`)).status).toBe(401);
    expect((await guest.delete(`/api/artists/${artist.id}`)).status).toBe(401);
    const unverified = server.client();
    await registerUser(unverified, nextEmail('unverified-actor'));
    const edit = { json: { name: 'X', description: 'Y' } };
    expect((await unverified.patch(`/api/artists/${artist.id}/update`, edit)).status).toBe(404);
    expect((await unverified.request('PATCH', `/api/artists/${artist.id}/publish`)).status).toBe(404);
    expect((await unverified.delete(`/api/artists/${artist.id}`)).status).toBe(404);
    const published = await admin.request('PATCH', `/api/artists/${artist.id}/publish`);
    expect(artistSchema.parse(published.json).status).toBe('PUBLISHED');
  });

  it('refuses other users (404 for a draft, 403 when public), changes nothing, and lets admins', async () => {
    const owner = await verifiedUser(server, nextEmail('guarded'));
    const artist = await createArtist(owner, { name: 'Guarded' });
    const other = await verifiedUser(server, nextEmail('intruder'));
    const edit = { json: { name: 'Hacked', description: 'Hacked.' } };
    expect((await other.patch(`/api/artists/${artist.id}/update`, edit)).status).toBe(404);
    expect((await other.request('PATCH', `/api/artists/${artist.id}/publish`)).status).toBe(404);
    expect((await other.delete(`/api/artists/${artist.id}`)).status).toBe(404);
    expect((await server.client().patch(`/api/artists/${artist.id}/update`, edit)).status).toBe(401);

    await owner.request('PATCH', `/api/artists/${artist.id}/publish`);
    expect((await other.patch(`/api/artists/${artist.id}/update`, edit)).status).toBe(403);
    expect((await other.delete(`/api/artists/${artist.id}`)).status).toBe(403);
    expect(artistSchema.parse((await server.client().get(`/api/artists/${artist.id}`)).json).name).toBe('Guarded');

    const byAdmin = await admin.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'Guarded', description: 'Fixed by an admin.' },
    });
    expect(byAdmin.status).toBe(200);
    expect(artistSchema.parse((await server.client().get(`/api/artists/${artist.id}`)).json).description).toBe(
      'Fixed by an admin.',
    );
  });

  it('validates edits with the same messages', async () => {
    const owner = await verifiedUser(server, nextEmail('edit-invalid'));
    const artist = await createArtist(owner);
    const response = await owner.patch(`/api/artists/${artist.id}/update`, { json: { name: '', description: 'x' } });
    expect(fieldErrors(response.json)).toEqual({ name: 'Name is required.' });
  });

  it('publishes only a publishable artist', async () => {
    const owner = await verifiedUser(server, nextEmail('publisher'));
    const artist = await createArtist(owner);
    server.db.update(artists).set({ profileImageId: null }).where(eq(artists.id, artist.id)).run();
    const refused = await owner.request('PATCH', `/api/artists/${artist.id}/publish`);
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      message: 'Add a name, a description and a profile image before publishing this artist.',
    });
    const needsImage = await owner.patch(`/api/artists/${artist.id}/update`, { json: { name: 'A', description: 'B' } });
    expect(fieldErrors(needsImage.json)).toEqual({ profileImage: 'Profile image is required.' });
    await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'A', description: 'B', profileImage: await uploadImage(owner) },
    });
    const published = await owner.request('PATCH', `/api/artists/${artist.id}/publish`);
    expect(artistSchema.parse(published.json)).toMatchObject({ status: 'PUBLISHED', publishedAt: expect.any(String) });
  });

  it('deletes softly: gone for everyone, the slug stays taken', async () => {
    const owner = await verifiedUser(server, nextEmail('deleter'));
    const artist = await createArtist(owner, { name: 'Gone Soon' });
    expect((await owner.delete(`/api/artists/${artist.id}`)).status).toBe(200);
    expect((await owner.get(`/api/artists/${artist.id}`)).status).toBe(404);
    expect((await owner.get('/api/artists/user')).json).toEqual([]);
    expect(server.db.select().from(artists).where(eq(artists.id, artist.id)).get()?.deletedAt).toBeInstanceOf(Date);
    const successor = await createArtist(owner, { name: 'Gone Soon' });
    expect(successor.urlSlug).toBe('gone-soon-2');

    const byAdmin = await createArtist(owner, { name: 'Admin Removes' });
    expect((await admin.delete(`/api/artists/${byAdmin.id}`)).status).toBe(200);
  });
});

describe('link rows (website0-3 and url0-3)', () => {
  const links = {
    website0: 'Bandcamp',
    url0: 'https://bandcamp.example.org/test-band',
    website1: '',
    url1: '',
    website2: 'Live video',
    url2: 'http://video.example.org/live?id=1',
    website3: '',
    url3: '',
  };

  it('keeps the four label and URL pairs through create, read and edit, whoever reads', async () => {
    const owner = await verifiedUser(server, nextEmail('links'));
    const created = await createArtist(owner, { name: 'Linked Band', ...links });
    expect(created).toMatchObject(links);
    await owner.request('PATCH', `/api/artists/${created.id}/publish`);
    // The public JSON is kept in memory (server/db/cache.ts): a visitor reads it first, then the edit.
    const path = `/api/artists/slug/${created.urlSlug}`;
    expect(artistSchema.parse((await server.client().get(path)).json)).toMatchObject(links);

    const edited = { ...links, website0: '', url0: '', website3: '  Shop  ', url3: ' https://shop.example.org ' };
    const update = await owner.patch(`/api/artists/${created.id}/update`, {
      json: { name: 'Linked Band', description: 'Songs about testing.', ...edited },
    });
    expect(update.status).toBe(200);
    for (const reader of [server.client(), owner]) {
      for (const url of [path, `/api/artists/${created.id}`]) {
        expect(artistSchema.parse((await reader.get(url)).json)).toMatchObject({
          ...links,
          website0: '',
          url0: '',
          website3: 'Shop',
          url3: 'https://shop.example.org',
        });
      }
    }
    const listed = artistListSchema.parse((await owner.get('/api/artists/user')).json);
    expect(listed.find((artist) => artist.id === created.id)).toMatchObject({ website3: 'Shop' });
  });

  it("checks each URL like the website, each label's length, and refuses half a row on its empty half", async () => {
    const owner = await verifiedUser(server, nextEmail('bad-links'));
    const profileImage = await uploadImage(owner);
    const response = await owner.post('/api/artists/new', {
      json: {
        name: 'A',
        description: 'B',
        profileImage,
        website0: 'l'.repeat(51),
        url0: 'https://example.org',
        website1: 'No scheme',
        url1: 'www.example.org',
        website2: 'Not a url',
        url2: 'https://not a url',
        website3: 'Too long',
        url3: `https://e.org/${'a'.repeat(400)}`,
      },
    });
    expect(response.status).toBe(400);
    expect(fieldErrors(response.json)).toEqual({
      website0: 'Link label cannot exceed 50 character(s).',
      url1: 'URL must start with either http:// or https://',
      url2: 'Please enter a valid url.',
      url3: 'Link URL cannot exceed 400 character(s).',
    });

    const halves = await owner.post('/api/artists/new', {
      json: { name: 'A', description: 'B', profileImage, website0: 'Label only', url0: ' ', url2: 'https://x.org' },
    });
    expect(halves.status).toBe(400);
    expect(fieldErrors(halves.json)).toEqual({
      url0: 'Please enter the URL for this link.',
      website2: 'Please enter a label for this link.',
    });

    const artist = await createArtist(owner);
    const edit = await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'A', description: 'B', website1: 'Half', url3: 'javascript:alert(1)', website3: 'Evil' },
    });
    expect(fieldErrors(edit.json)).toEqual({
      url1: 'Please enter the URL for this link.',
      url3: 'URL must start with either http:// or https://',
    });
    expect(artistSchema.parse((await owner.get(`/api/artists/${artist.id}`)).json)).toMatchObject({
      website1: '',
      url3: '',
    });
  });
});

describe('GET /api/artists/search', () => {
  const search = async (query: string) => {
    const response = await server.client().get(`/api/artists/search?${query}`);
    return {
      status: response.status,
      body: response.status === 200 ? artistSearchResultSchema.parse(response.json) : response.json,
    };
  };

  beforeAll(async () => {
    const owner = await verifiedUser(server, nextEmail('searcher'));
    const publish = async (name: string, description: string) => {
      const artist = await createArtist(owner, { name, description });
      await owner.request('PATCH', `/api/artists/${artist.id}/publish`);
      return artist;
    };
    await publish('Jazz Collective', 'Late night improvisation.');
    await publish('Quiet Strings', 'A string quartet that plays jazz standards.');
    await publish('Zoë Keating Tribute', 'Cello loops.');
    await publish('Raga Ensemble', 'संगीत की शाम');
    await createArtist(owner, { name: 'Jazz Draft', description: 'Not public.' });
    const deleted = await publish('Jazz Deleted', 'Removed.');
    await owner.delete(`/api/artists/${deleted.id}`);
  });

  it('finds by prefix, ranks name matches first, and skips drafts and deleted artists', async () => {
    const { body } = await search('searchTerm=jaz');
    const names = (body as { results: { name: string }[] }).results.map((artist) => artist.name);
    expect(names).toEqual(['Jazz Collective', 'Quiet Strings']);
    expect((body as { totalCount: number }).totalCount).toBe(2);
  });

  it('matches every word, ignores accents and punctuation', async () => {
    const both = await search('searchTerm=jazz%20coll');
    expect((both.body as { results: { name: string }[] }).results.map((a) => a.name)).toEqual(['Jazz Collective']);
    const hindi = await search(`searchTerm=${encodeURIComponent('संगीत')}`);
    expect((hindi.body as { results: { name: string }[] }).results.map((a) => a.name)).toEqual(['Raga Ensemble']);
    const accent = await search('searchTerm=zoe');
    expect((accent.body as { results: { name: string }[] }).results.map((a) => a.name)).toEqual([
      'Zoë Keating Tribute',
    ]);
    // FTS5 syntax typed by a user is only words: '"jazz" OR *' means the words jazz and or.
    const quotes = await search(`searchTerm=${encodeURIComponent('"jazz" OR *')}`);
    expect(quotes.status).toBe(200);
    expect((quotes.body as { totalCount: number }).totalCount).toBe(0);
    const nothingButPunctuation = await search(`searchTerm=${encodeURIComponent('!!! ***')}`);
    expect(nothingButPunctuation.body).toEqual({ results: [], totalCount: 0 });
  });

  it('lists recent published artists without a term, paged', async () => {
    const all = await search('');
    const total = (all.body as { totalCount: number }).totalCount;
    expect(total).toBeGreaterThanOrEqual(3);
    const firstPage = await search('pageSize=2&page=0');
    const secondPage = await search('pageSize=2&page=1');
    const ids = [
      ...(firstPage.body as { results: { id: number }[] }).results,
      ...(secondPage.body as { results: { id: number }[] }).results,
    ].map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    const notANumber = await search('page=abc&pageSize=2');
    expect(notANumber.body).toEqual(firstPage.body);
    const listed = (all.body as { results: { status: string; publishedAt: string | null }[] }).results;
    expect(listed.every((a) => a.status === 'PUBLISHED')).toBe(true);
    const times = listed.map((a) => Date.parse(a.publishedAt!));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('reads a huge or odd page as a page (never a 500) and refuses a bad page size', async () => {
    for (const page of ['99999999999999999999', '1e20', '4611686018427387904', '-1']) {
      expect((await search(`page=${page}&searchTerm=jazz`)).status).toBe(200);
      expect((await search(`page=${page}`)).status).toBe(200);
    }
    const bad = await search('pageSize=-5');
    expect(bad.status).toBe(400);
    expect(fieldErrors(bad.body)).toEqual({ pageSize: 'Page size must be a whole number of 0 or more.' });
    const none = await search('pageSize=0');
    expect(none.body).toMatchObject({ results: [] });
  });

  it('follows renames of published artists', async () => {
    const owner = await verifiedUser(server, nextEmail('renamer'));
    const artist = await createArtist(owner, { name: 'Kaleidoscope Choir', description: 'Voices.' });
    await owner.request('PATCH', `/api/artists/${artist.id}/publish`);
    const names = async (term: string) =>
      ((await search(`searchTerm=${term}`)).body as { results: { name: string }[] }).results.map((a) => a.name);
    expect(await names('kaleido')).toEqual(['Kaleidoscope Choir']);
    await owner.patch(`/api/artists/${artist.id}/update`, { json: { name: 'Prism Choir', description: 'Voices.' } });
    expect(await names('kaleido')).toEqual([]);
    expect(await names('prism')).toEqual(['Prism Choir']);
  });

  it('refuses a search term over 800 characters with formErrors', async () => {
    const { status, body } = await search(`searchTerm=${'a'.repeat(801)}`);
    expect(status).toBe(400);
    expect(fieldErrors(body)).toEqual({ searchTerm: 'Search term cannot exceed 800 character(s).' });
  });
});
