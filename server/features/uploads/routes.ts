import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/context';
import { requireSession } from '../../http/session';
import { sendMedia } from '../../http/send-media';
import { multipartRequest } from '../../http/validation';
import type { MediaStore } from '../../infra/storage/media';
import { uploadImage, uploadTrack } from './service';

// Spec part 1 section 7: POST /api/uploads/image (multipart field imageFile → { id }). Login
// required, a verified email is not (DESIGN.md contract details).
export const uploadRoutes = new Hono<AppEnv>()
  .post('/uploads/image', async (c) => {
    const session = requireSession(c);
    return c.json(await uploadImage(c.get('deps'), session, multipartRequest(c)), 201);
  })
  // Spec part 2 section 7: POST /api/uploads/track (multipart field trackFile → { id }).
  .post('/uploads/track', async (c) => {
    const session = requireSession(c);
    return c.json(await uploadTrack(c.get('deps'), session, multipartRequest(c)), 201);
  });

const RENDITION = /^\/media\/images\/([A-Za-z0-9_-]{22}-\d{2,4}\.(webp|jpg))$/;

/** Image renditions never change under a name, so browsers may keep them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export function mediaRoutes(media: MediaStore) {
  const routes = new Hono<AppEnv>();
  if (media.objects.kind === 'local') {
    routes.get(
      '/media/images/*',
      async (c, next) => {
        if (!RENDITION.test(c.req.path)) return c.text('Not found', 404);
        await next();
      },
      serveStatic({
        root: media.dirs.images,
        rewriteRequestPath: (requestPath) => path.basename(requestPath),
        onFound: (_path, c) => {
          // A file answer, never made whole as JSON is: the header set here goes on it.
          // eslint-disable-next-line no-restricted-syntax
          c.header('cache-control', IMMUTABLE);
        },
      }),
      (c) => c.text('Not found', 404),
    );
  } else {
    // In a bucket: the same URLs answer a redirect to the CDN or the store (send-media.ts).
    routes.get('/media/images/*', async (c) => {
      const match = RENDITION.exec(c.req.path);
      if (!match?.[1]) return c.text('Not found', 404);
      const response = await sendMedia(c, {
        path: path.join(media.dirs.images, match[1]),
        contentType: match[2] === 'webp' ? 'image/webp' : 'image/jpeg',
        cacheControl: IMMUTABLE,
        version: match[1],
      });
      return response ?? c.text('Not found', 404);
    });
  }
  return routes.get('/media/*', (c) => c.text('Not found', 404));
}
