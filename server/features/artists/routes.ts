import { Hono } from 'hono';
import { artistSearchParamsSchema, createArtistSchema, updateArtistSchema } from '../../../shared/schemas/artists';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { requireSession, requireVerifiedSession } from '../../http/session';
import { jsonBody, parseWith } from '../../http/validation';
import * as artists from './service';

const artistId = (raw: string) => pathId(raw, artists.ARTIST_NOT_FOUND);

// Spec part 1 section 7: the artist calls. Routes parse and call the service; a change to one
// artist asks whether the caller may make it before it reads the body (issue 14).
export const artistRoutes = new Hono<AppEnv>()
  .get('/artists/user', (c) => {
    const session = requireSession(c);
    return c.json(artists.listUserArtists(c.get('deps'), session).map(artists.toArtist));
  })
  .post('/artists/new', async (c) => {
    const session = requireVerifiedSession(c);
    const input = await jsonBody(c, createArtistSchema);
    return c.json(artists.toArtist(artists.createArtist(c.get('deps'), session, input)), 201);
  })
  .get('/artists/search', (c) => {
    const params = parseWith(artistSearchParamsSchema, c.req.query());
    return c.json(artists.searchArtists(c.get('deps'), params));
  })
  .get('/artists/slug/:slug', (c) =>
    c.json(artists.getArtistBySlug(c.get('deps'), c.get('session'), c.req.param('slug'))),
  )
  .get('/artists/:id', (c) => c.json(artists.getArtist(c.get('deps'), c.get('session'), artistId(c.req.param('id')))))
  .patch('/artists/:id/update', async (c) => {
    const session = requireSession(c);
    const id = artistId(c.req.param('id'));
    artists.checkMayChangeArtist(c.get('deps'), session, id);
    const input = await jsonBody(c, updateArtistSchema);
    const row = artists.updateArtist(c.get('deps'), session, id, input);
    return c.json({ urlSlug: row.urlSlug });
  })
  .patch('/artists/:id/publish', (c) => {
    const session = requireSession(c);
    return c.json(artists.toArtist(artists.publishArtist(c.get('deps'), session, artistId(c.req.param('id')))));
  });
// DELETE /api/artists/{id} takes the artist's fundraisers with it, so the fundraisers feature
// answers it (server/features/fundraisers/routes.ts): this feature knows nothing of fundraisers.
