import { describe, expect, it } from 'vitest';
import { artistSchema } from '../../shared/answers/artists';
import { fundraiserSchema } from '../../shared/answers/fundraisers';
import { libraryAlbumDetailSchema } from '../../shared/answers/library';
import { findPage, pagePaths } from '../../shared/routes';
import { useFakeClientBuild } from '../fixtures/fake-client-build';
import { createArtist, createFundraiser } from '../fixtures/fundraisers';
import { registerUser, strongPassword, verifiedUser } from '../fixtures/test-server';
import { useTestServer } from '../fixtures/use-test-server';

// What the server answers for page addresses and personal JSON (issue 9): an address of no page is
// a real 404, links made before a rename move to the new address, and nothing about a user may be
// kept by a cache.

const server = useTestServer({ CLIENT_DIST_DIR: useFakeClientBuild() });

let counter = 0;
const uniqueEmail = (label: string) => `${label}-${++counter}@example.org`;

describe('the route table in shared/routes.ts', () => {
  it('finds the page the router would show, a fixed segment before a parameter', () => {
    expect(findPage('/')?.name).toBe('home');
    expect(findPage('/browse')?.name).toBe('browse');
    expect(findPage('/browse/artists')?.name).toBe('browse');
    expect(findPage('/artists/new')?.name).toBe('newArtist');
    expect(findPage('/artists/user')?.name).toBe('yourArtists');
    expect(findPage('/artists/the-band')).toEqual({ name: 'artist', params: { artistSlugOrId: 'the-band' } });
    expect(findPage('/artists/join')?.name).toBe('artistsJoin');
    expect(findPage('/for-artists')?.name).toBe('forArtists');
    expect(findPage('/fundraisers/user/12/edit')?.name).toBe('editFundraiser');
    expect(findPage('/fundraisers/new/music')?.name).toBe('fundraiserWizard');
    expect(findPage('/admin')?.name).toBe('admin');
    expect(findPage('/admin/disbursements/new')?.name).toBe('admin');
    expect(findPage('/projects/a/b/c')).toBeNull();
    expect(findPage('/nope')).toBeNull();
    expect(findPage('/user/verify-email/extra')).toBeNull();
  });
});

describe('page addresses', () => {
  it("answers an address of no page with 404 and the app (which shows 'Page not found')", async () => {
    for (const path of ['/nope', '/browse/artists/extra', '/projects', '/music/album']) {
      const response = await server.client().get(path);
      expect(response.status, path).toBe(404);
      expect(response.text, path).toContain('<div id="root"><main id="main"></main></div>');
    }
    for (const path of [
      '/',
      '/browse',
      '/about',
      '/login',
      '/user',
      '/fundraisers/new/artist',
      '/admin/transactions',
    ]) {
      expect((await server.client().get(path)).status, path).toBe(200);
    }
    expect(Object.keys(pagePaths).length).toBeGreaterThan(20);
  });

  it('answers 404, not 500, for the web manifest of a build that has none', async () => {
    expect((await server.client().get('/manifest.webmanifest')).status).toBe(404);
  });

  it('answers 404 for a fundraiser or artist that does not exist, and moves an id to the slug', async () => {
    expect((await server.client().get('/projects/no-such-album')).status).toBe(404);
    expect((await server.client().get('/projects/999999')).status).toBe(404);
    expect((await server.client().get('/artists/no-such-artist')).status).toBe(404);
    const owner = await verifiedUser(server, uniqueEmail('owner'));
    const album = await createFundraiser(owner, { publish: true, tracks: 1 });
    const byId = await server.client().get(`/projects/${album.id}?ref=mail`);
    expect(byId.status).toBe(301);
    expect(byId.headers.get('location')).toBe(`/projects/${album.urlSlug}?ref=mail`);
    expect((await server.client().get(`/projects/${album.urlSlug}`)).status).toBe(200);
  });

  it("keeps a renamed draft's invite link working: the old slug leads to the new one", async () => {
    const owner = await verifiedUser(server, uniqueEmail('renamer'));
    const draft = await createFundraiser(owner, { details: { name: 'First Name Album' }, tracks: 1 });
    expect(draft.urlSlug).toBe('first-name-album');
    const renamed = await owner.post('/api/fundraisers/save', {
      json: {
        id: draft.id,
        artistId: draft.artistId,
        charityEin: draft.charityEin,
        donationMinimumCents: 500,
        fundraisingGoalCents: 100_000,
        name: 'Second Name Album',
        description: draft.description,
        genre: draft.genre,
      },
    });
    expect(renamed.status).toBe(200);
    // The API finds it by the old slug and answers with the new one (the page then moves there).
    const byOld = fundraiserSchema.parse((await owner.get('/api/fundraisers/slug/first-name-album')).json);
    expect(byOld.urlSlug).toBe('second-name-album');
    // A draft is still the owner's alone.
    expect((await server.client().get('/api/fundraisers/slug/first-name-album')).status).toBe(404);
    // The old slug is never given to someone else's fundraiser.
    const other = await verifiedUser(server, uniqueEmail('squatter'));
    const lookalike = await createFundraiser(other, { details: { name: 'First Name Album' }, tracks: 1 });
    expect(lookalike.urlSlug).toBe('first-name-album-2');

    // Once published, a visitor's old link moves permanently to the new address.
    await owner.patch(`/api/fundraisers/${draft.id}/publish`, { json: { publishArtist: true } });
    const page = await server.client().get('/projects/first-name-album');
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe('/projects/second-name-album');
    // And the album page of Your music finds it by the old slug too.
    const album = libraryAlbumDetailSchema.parse(
      (await owner.get('/api/music-library/album/slug/first-name-album')).json,
    );
    expect(album.projectSlug).toBe('second-name-album');
  });

  it("keeps a renamed draft artist's links working, and gives a name back to its artist", async () => {
    const owner = await verifiedUser(server, uniqueEmail('artist-renamer'));
    const artist = await createArtist(owner, { name: 'Old Band Name' });
    const update = (name: string) =>
      owner.patch(`/api/artists/${artist.id}/update`, {
        json: { name, description: artist.description, website: '', profileImage: artist.profileImage },
      });
    expect((await update('New Band Name')).json).toEqual({ urlSlug: 'new-band-name' });
    expect(artistSchema.parse((await owner.get('/api/artists/slug/old-band-name')).json).urlSlug).toBe('new-band-name');
    // Renamed back: the artist takes its first slug again.
    expect((await update('Old Band Name')).json).toEqual({ urlSlug: 'old-band-name' });
    expect(artistSchema.parse((await owner.get('/api/artists/slug/new-band-name')).json).urlSlug).toBe('old-band-name');
    await owner.patch(`/api/artists/${artist.id}/publish`);
    const page = await server.client().get('/artists/new-band-name');
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe('/artists/old-band-name');
  });

  it('answers the artist landing page at both its addresses, titled, with its own link preview', async () => {
    for (const path of ['/for-artists', '/artists/join']) {
      const page = await server.client().get(path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).toContain('<title>For artists | Soundcause</title>');
      expect(page.text, path).toContain('<meta property="og:type" content="website" />');
      expect(page.text, path).toMatch(new RegExp(`<meta property="og:url" content="[^"]+${path}" />`));
      expect(page.text, path).toContain('we take no percentage');
    }
  });

  it("gives no artist a slug of the site's own pages under /artists/, so they stay reachable", async () => {
    const owner = await verifiedUser(server, uniqueEmail('joiner'));
    const artist = await createArtist(owner, { name: 'Join' });
    expect(artist.urlSlug).toBe('join-2');
    const renamed = await owner.patch(`/api/artists/${artist.id}/update`, {
      json: { name: 'New', description: artist.description, website: '', profileImage: artist.profileImage },
    });
    expect(renamed.json).toEqual({ urlSlug: 'new-2' });
    expect((await createArtist(owner, { name: 'User' })).urlSlug).toBe('user-2');
    await owner.patch(`/api/artists/${artist.id}/publish`);
    expect((await server.client().get('/artists/new-2')).status).toBe(200);
    expect((await server.client().get('/artists/join')).text).toContain('<title>For artists | Soundcause</title>');
  });
});

describe('ids in API paths', () => {
  it('takes digits only: 0x1, 1e0, +1, 01 and 1.0 name no artist', async () => {
    const owner = await verifiedUser(server, uniqueEmail('ids'));
    const artist = await createArtist(owner);
    expect((await server.client().get(`/api/artists/${artist.id}`)).status).toBe(404); // a draft
    expect((await owner.get(`/api/artists/${artist.id}`)).status).toBe(200);
    const hex = `0x${artist.id.toString(16)}`;
    for (const raw of [hex, `${artist.id}e0`, `+${artist.id}`, `0${artist.id}`, `${artist.id}.0`, '0']) {
      for (const path of [`/api/artists/${raw}`, `/api/fundraisers/artist/${raw}`]) {
        const response = await owner.get(path);
        expect(response.status, path).toBe(404);
        expect(response.json, path).toEqual({ code: 'OTHER', message: 'Artist not found.' });
      }
    }
  });
});

describe('personal answers and the signed-in hint', () => {
  it('marks JSON about the caller private and unstorable', async () => {
    const owner = await verifiedUser(server, uniqueEmail('private'));
    const album = await createFundraiser(owner, { tracks: 1 });
    for (const path of ['/api/user', `/api/fundraisers/${album.id}/transactions`, '/api/music-library/user']) {
      const response = await owner.get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('private, no-store');
    }
  });

  it('sets a readable hint beside the session, and clears it with the session', async () => {
    const client = server.client();
    const email = uniqueEmail('hint');
    const registered = await registerUser(client, email);
    const cookies = registered.headers.getSetCookie();
    const hint = cookies.find((cookie) => cookie.startsWith('soundcause_signed_in=1'));
    expect(hint).toBeDefined();
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(cookies.find((cookie) => cookie.startsWith('soundcause_session='))).toMatch(/HttpOnly/);

    const loggedOut = await client.post('/api/logout');
    expect(loggedOut.headers.getSetCookie().some((cookie) => /^soundcause_signed_in=;/.test(cookie))).toBe(true);

    // A session ended elsewhere (another device's password change): the next answer clears both.
    const again = server.client();
    await again.post('/api/login', { form: { email, password: strongPassword } });
    const other = server.client();
    await other.post('/api/login', { form: { email, password: strongPassword } });
    await other.post('/api/user/password', { json: { password: 'N3w!password' } });
    const dead = await again.get('/api/user');
    expect(dead.status).toBe(401);
    expect(dead.headers.get('x-logged-out')).toBe('true');
    expect(dead.headers.getSetCookie().some((cookie) => /^soundcause_signed_in=;/.test(cookie))).toBe(true);
  });

  it('gives sessions from before the hint existed their hint on the next page load', async () => {
    const client = server.client();
    await registerUser(client, uniqueEmail('old-session'));
    client.cookies.delete('soundcause_signed_in');
    const page = await client.get('/about');
    const hints = page.headers.getSetCookie().filter((cookie) => cookie.startsWith('soundcause_signed_in='));
    // One hint, with the session's own lifetime, and a page that sets a cookie no shared cache keeps.
    expect(hints).toHaveLength(1);
    expect(hints[0]).toMatch(/^soundcause_signed_in=1;.*Max-Age=\d{6,}/i);
    expect(page.headers.get('cache-control')).toMatch(/^private\b/);
    // An address of no page alike.
    client.cookies.delete('soundcause_signed_in');
    const missing = await client.get('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.headers.getSetCookie().some((cookie) => cookie.startsWith('soundcause_signed_in=1'))).toBe(true);
    expect(missing.headers.get('cache-control')).toMatch(/^private\b/);
  });
});
