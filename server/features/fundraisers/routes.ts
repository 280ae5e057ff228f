import fs from 'node:fs/promises';
import { Hono } from 'hono';
import { okSchema } from '../../../shared/api';
import { UPLOAD_LIMITS_MB } from '../../../shared/constants';
import {
  fundraiserMessages,
  fundraiserMusicSchema,
  fundraiserSearchParamsSchema,
  publishFundraiserSchema,
  saveFundraiserSchema,
  transactionsParamsSchema,
  updateFundraiserSchema,
  updateFundraiserV1Schema,
} from '../../../shared/schemas/fundraisers';
import { FormError, invalid, notFound } from '../../errors';
import type { AppEnv } from '../../http/context';
import { cacheControlFor, sendFile } from '../../http/send-file';
import { requireSession, requireVerifiedSession } from '../../http/session';
import { jsonBody, parseWith } from '../../http/validation';
import { isZip } from '../../infra/storage/file-types';
import { receiveForm } from '../../infra/storage/multipart';
import { checkAlbumZip } from '../../infra/storage/zip-check';
import { zipStream, zipStreamSize } from '../../infra/storage/zip-stream';
import * as fundraisers from './service';

function fundraiserId(raw: string): number {
  const id = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) throw notFound(fundraiserMessages.notFound);
  return id;
}

const MB = 1024 * 1024;

// Spec part 2 section 7: the fundraiser calls. Routes parse and call the service.
export const fundraiserRoutes = new Hono<AppEnv>()
  .get('/fundraisers/search', (c) => {
    const params = parseWith(fundraiserSearchParamsSchema, c.req.query());
    return c.json(fundraisers.searchFundraisers(c.get('deps'), c.get('session'), params));
  })
  .get('/fundraisers/user', (c) => {
    const session = requireSession(c);
    return c.json(fundraisers.listUserFundraisers(c.get('deps'), session));
  })
  .get('/fundraisers/featured', (c) => c.json(fundraisers.listFeatured(c.get('deps'), c.get('session'))))
  .get('/fundraisers/artist/:artistId', (c) => {
    const raw = c.req.param('artistId');
    const artistId = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(artistId) || artistId <= 0) throw notFound('Artist not found.');
    return c.json(fundraisers.listArtistFundraisers(c.get('deps'), c.get('session'), artistId));
  })
  .get('/fundraisers/slug/:slug', (c) =>
    c.json(fundraisers.getFundraiserBySlug(c.get('deps'), c.get('session'), c.req.param('slug'))),
  )
  .post('/fundraisers/save', async (c) => {
    const session = requireVerifiedSession(c);
    const input = await jsonBody(c, saveFundraiserSchema);
    return c.json(fundraisers.saveFundraiser(c.get('deps'), session, input), input.id === undefined ? 201 : 200);
  })
  .patch('/fundraisers/music', async (c) => {
    const session = requireVerifiedSession(c);
    const input = await jsonBody(c, fundraiserMusicSchema);
    return c.json(fundraisers.saveMusic(c.get('deps'), session, input));
  })
  .get('/fundraisers/:id', (c) =>
    c.json(fundraisers.getFundraiser(c.get('deps'), c.get('session'), fundraiserId(c.req.param('id')))),
  )
  .get('/fundraisers/:id/transactions', (c) => {
    const session = requireSession(c);
    const { page, page_size } = parseWith(transactionsParamsSchema, c.req.query());
    const id = fundraiserId(c.req.param('id'));
    return c.json(fundraisers.listTransactions(c.get('deps'), session, id, page, page_size));
  })
  /** The preview track (its streaming rendition once processed); Range requests work, so players can seek. */
  .get('/fundraisers/:id/preview', async (c) => {
    const id = fundraiserId(c.req.param('id'));
    const file = fundraisers.previewTrackFile(c.get('deps'), c.get('session'), id, c.req.query('v'));
    const response = await sendFile(c, {
      path: file.path,
      contentType: file.format === 'wav' ? 'audio/wav' : 'audio/mpeg',
      cacheControl: cacheControlFor(file),
      version: file.version,
    });
    if (!response) throw notFound(fundraisers.noPreviewMessage);
    return response;
  })
  /**
   * The album as a zip, streamed while it is built: the first bytes leave at once, memory stays
   * flat. HEAD answers the same headers without opening a file (Hono would run this handler for
   * HEAD and drop a body nobody cancels). A legacy zip goes through sendFile, so an interrupted
   * download can resume with Range.
   */
  .get('/fundraisers/:id/download', async (c) => {
    const session = requireSession(c);
    const deps = c.get('deps');
    const album = await fundraisers.albumDownload(deps, session, fundraiserId(c.req.param('id')));
    const disposition = `attachment; filename*=UTF-8''${encodeURIComponent(album.fileName)}`;
    if (album.kind === 'zip') {
      const response = await sendFile(c, {
        path: album.path,
        contentType: 'application/zip',
        cacheControl: 'private, no-store',
        version: album.version,
      });
      if (!response) {
        deps.logger.error({ path: album.path }, 'album download: legacy zip missing on disk');
        throw notFound('The album zip is no longer available.');
      }
      // On the file's answer only: an error page must not be saved as "Album.zip".
      response.headers.set('content-disposition', disposition);
      return response;
    }
    c.header('content-disposition', disposition);
    c.header('content-type', 'application/zip');
    c.header('cache-control', 'private, no-store');
    if (c.req.method === 'HEAD') {
      c.header('content-length', String(zipStreamSize(album.entries)));
      return c.body(null, 200);
    }
    const zip = zipStream(album.entries, (error) =>
      deps.logger.error({ err: error, fileName: album.fileName }, 'album download: zip failed while sending'),
    );
    c.header('content-length', String(zip.size));
    return c.body(zip.body);
  })
  .patch('/fundraisers/:id/publish', async (c) => {
    const session = requireSession(c);
    const id = fundraiserId(c.req.param('id'));
    // The body is optional: without one, nothing but the fundraiser is published.
    const hasBody = (c.req.header('content-length') ?? '0') !== '0' || c.req.header('transfer-encoding');
    const { publishArtist } = hasBody ? await jsonBody(c, publishFundraiserSchema) : { publishArtist: false };
    return c.json(fundraisers.publishFundraiser(c.get('deps'), session, id, publishArtist));
  })
  .patch('/fundraisers/:id/update', async (c) => {
    const session = requireSession(c);
    const id = fundraiserId(c.req.param('id'));
    const input = await jsonBody(c, updateFundraiserSchema);
    return c.json(fundraisers.updateFundraiser(c.get('deps'), session, id, input));
  })
  .patch('/fundraisers/:id/updatev1', async (c) => {
    const session = requireSession(c);
    const id = fundraiserId(c.req.param('id'));
    const deps = c.get('deps');
    fundraisers.checkLegacyEdit(deps, session, id);
    const form = await receiveForm(
      { body: c.req.raw.body, contentType: c.req.header('content-type') ?? '' },
      {
        field: 'albumZip',
        maxBytes: UPLOAD_LIMITS_MB.zip * MB,
        tempFile: deps.media.tempFile(),
        tooLargeMessage: `File must be less than ${UPLOAD_LIMITS_MB.zip} MB`,
        fileRequired: false,
        maxFields: 30,
      },
    );
    try {
      const input = parseWith(updateFundraiserV1Schema, form.fields);
      // A form's file input left empty still sends an empty part: that is no file, not a bad one.
      const zip = form.file && form.file.bytes === 0 && !form.file.originalName ? undefined : form.file;
      if (zip && !isZip(zip.head)) throw invalid('File type must be .zip');
      const check = zip ? await checkAlbumZip(zip.tempFile) : undefined;
      if (check && !check.ok) throw new FormError([{ field: 'albumZip', message: check.message }]);
      return c.json(await fundraisers.updateFundraiserV1(deps, session, id, input, zip));
    } finally {
      if (form.file) await fs.rm(form.file.tempFile, { force: true });
    }
  })
  .delete('/fundraisers/:id', (c) => {
    const session = requireSession(c);
    fundraisers.deleteFundraiser(c.get('deps'), session, fundraiserId(c.req.param('id')));
    return c.json(okSchema.parse({ ok: true }));
  });
