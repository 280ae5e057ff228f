import { Hono } from 'hono';
import { libraryPageParamsSchema } from '../../../shared/schemas/library';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { sendPreparation } from '../../http/send-album';
import { requireSession } from '../../http/session';
import { parseWith } from '../../http/validation';
import * as albumFormats from '../fundraisers/album-formats';
import { sendAlbumDownload } from '../fundraisers/routes';
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
  })
  /** Prepares the album in a download format (POST; idempotent) and says how far it has come (issue 27). */
  .on(['GET', 'POST'], '/music-library/album/:id/formats/:format', (c) => {
    const deps = c.get('deps');
    const id = albumId(c.req.param('id'));
    const row = library.downloadableAlbum(deps, requireSession(c), id);
    const format = albumFormats.formatOf(c.req.param('format'));
    return sendPreparation(
      c,
      albumFormats.prepareFormat(deps, row, format, {
        retry: c.req.method === 'POST',
        downloadUrl: `/api/music-library/album/${id}/download?format=${format}`,
      }),
    );
  })
  /** The album zip: in `?format=` once prepared (409 until then), else the originals as today. */
  .get('/music-library/album/:id/download', (c) =>
    sendAlbumDownload(c, library.downloadableAlbum(c.get('deps'), requireSession(c), albumId(c.req.param('id')))),
  );
