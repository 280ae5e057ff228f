import { Hono } from 'hono';
import { libraryPageParamsSchema } from '../../../shared/schemas/library';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { requireSession } from '../../http/session';
import { parseWith } from '../../http/validation';
import * as library from './service';

const albumId = (raw: string) => pathId(raw, library.ALBUM_NOT_FOUND);

// Spec part 1 section 7: the music-library calls, all for logged-in users only.
export const libraryRoutes = new Hono<AppEnv>()
  .get('/music-library/user', (c) => {
    const session = requireSession(c);
    const params = parseWith(libraryPageParamsSchema, c.req.query());
    return c.json(library.listOwnAlbums(c.get('deps'), session, params));
  })
  .get('/music-library/purchases', (c) => {
    const session = requireSession(c);
    const params = parseWith(libraryPageParamsSchema, c.req.query());
    return c.json(library.listPurchases(c.get('deps'), session, params));
  })
  .get('/music-library/album/slug/:slug', (c) => {
    const session = requireSession(c);
    return c.json(library.getAlbum(c.get('deps'), session, { slug: c.req.param('slug') }));
  })
  .get('/music-library/album/:id', (c) => {
    const session = requireSession(c);
    return c.json(library.getAlbum(c.get('deps'), session, { id: albumId(c.req.param('id')) }));
  });
