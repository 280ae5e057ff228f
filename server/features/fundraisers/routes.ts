import fs from 'node:fs/promises';
import { type Context, Hono } from 'hono';
import { okSchema } from '../../../shared/answers/api';
import { featuredFundraiserIdsSchema } from '../../../shared/schemas/admin-money';
import {
  fundraiserMusicSchema,
  fundraiserSearchParamsSchema,
  publishFundraiserSchema,
  saveFundraiserSchema,
  transactionsParamsSchema,
  updateFundraiserSchema,
  updateFundraiserV1Schema,
} from '../../../shared/schemas/fundraisers';
import { fundraiserMessages } from '../../../shared/fundraiser-messages';
import { notFound } from '../../errors';
import type { AppEnv } from '../../http/context';
import { pathId } from '../../http/ids';
import { mediaRequestOf } from '../../http/request-context';
import { sendAlbum, sendPreparation } from '../../http/send-album';
import { cacheControlFor } from '../../http/send-file';
import { sendMedia } from '../../http/send-media';
import { requireAdminSession, requireSession, requireVerifiedSession } from '../../http/session';
import { jsonBody, multipartRequest, parseWith } from '../../http/validation';
import { receiveForm } from '../../infra/storage/multipart';
import { ARTIST_NOT_FOUND } from '../artists/service';
import { countDownload, countPlay } from '../insight/service';
import * as albumFormats from './album-formats';
import * as albumMedia from './album-media';
import * as legacyForm from './legacy-form';
import type { FundraiserRow } from './queries';
import * as fundraisers from './service';

const fundraiserId = (raw: string) => pathId(raw, fundraiserMessages.notFound);

/** The album whose music the caller may take home: by the URL's grant, or the session's right to it. */
function albumOfCaller(c: Context<AppEnv>, id: number) {
  const grant = c.req.query('grant');
  if (grant !== undefined) return albumMedia.grantedAlbum(c.get('deps'), id, grant);
  return albumMedia.downloadableAlbum(c.get('deps'), requireSession(c), id);
}

/**
 * The album as a zip, for whoever its route let in (its owner, an admin, a buyer, a grant or a
 * receipt's link): in `?format=` once prepared (409 until then), else the originals. A download
 * begun is counted for the fundraiser's insight (issue 29). Its three routes share this.
 */
export async function sendAlbumDownload(c: Context<AppEnv>, row: FundraiserRow): Promise<Response> {
  const deps = c.get('deps');
  const format = c.req.query('format');
  const response = await sendAlbum(
    c,
    deps,
    format === undefined
      ? await albumMedia.albumFiles(deps, row)
      : await albumFormats.formatDownload(deps, row, albumFormats.formatOf(format)),
  );
  countDownload(deps, row.id, format ?? 'original', mediaRequestOf(c, response.status));
  return response;
}

// Spec part 2 section 7: the fundraiser calls. Routes parse and call the service; a call about one
// fundraiser asks whether the caller may make it before it reads the request (issue 14).
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
  /** The admins' featured list (spec part 2 section 5): a bare array of ids, in the home page's order. */
  .put('/admin/projects/featured', async (c) => {
    requireAdminSession(c);
    const ids = await jsonBody(c, featuredFundraiserIdsSchema);
    fundraisers.replaceFeatured(c.get('deps'), ids);
    return c.json(okSchema.parse({ ok: true }));
  })
  .get('/fundraisers/artist/:artistId', (c) => {
    const artistId = pathId(c.req.param('artistId'), ARTIST_NOT_FOUND);
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
    const id = fundraiserId(c.req.param('id'));
    fundraisers.checkMayManage(c.get('deps'), session, id);
    const { page, page_size } = parseWith(transactionsParamsSchema, c.req.query());
    return c.json(fundraisers.listTransactions(c.get('deps'), session, id, page, page_size));
  })
  /** The preview track (its streaming rendition once processed); Range requests work, so players can seek. */
  .get('/fundraisers/:id/preview', async (c) => {
    const id = fundraiserId(c.req.param('id'));
    const file = albumMedia.previewTrackFile(c.get('deps'), c.get('session'), id, c.req.query('v'));
    const response = await sendMedia(c, {
      path: file.path,
      contentType: file.format === 'wav' ? 'audio/wav' : 'audio/mpeg',
      cacheControl: cacheControlFor(file),
      version: file.version,
    });
    if (!response) throw notFound(albumMedia.noPreviewMessage);
    // A preview begun, for the fundraiser's insight (issue 29).
    countPlay(c.get('deps'), id, 'preview_play', mediaRequestOf(c, response.status));
    return response;
  })
  /**
   * The album as a zip (server/http/send-album.ts): owner, admins and buyers; or whoever holds a
   * grant of it in the URL (a guest on the success page), session or not. `?format=` names a
   * download format (issue 27): the prepared files, 409 while they are being made.
   */
  .get('/fundraisers/:id/download', (c) => sendAlbumDownload(c, albumOfCaller(c, fundraiserId(c.req.param('id')))))
  /** Every download format with the album's size in it: public, so a fan sees them before buying. */
  .get('/fundraisers/:id/formats', async (c) =>
    c.json(await albumFormats.albumFormats(c.get('deps'), c.get('session'), fundraiserId(c.req.param('id')))),
  )
  /** Prepares the album in a format (POST; idempotent) and says how far it has come (GET, POST). */
  .on(['GET', 'POST'], '/fundraisers/:id/formats/:format', (c) => {
    const id = fundraiserId(c.req.param('id'));
    const row = albumOfCaller(c, id);
    const format = albumFormats.formatOf(c.req.param('format'));
    const grant = c.req.query('grant');
    const query = new URLSearchParams({ format, ...(grant === undefined ? {} : { grant }) });
    return sendPreparation(
      c,
      albumFormats.prepareFormat(c.get('deps'), row, format, {
        retry: c.req.method === 'POST',
        downloadUrl: `/api/fundraisers/${id}/download?${query}`,
      }),
    );
  })
  .patch('/fundraisers/:id/publish', async (c) => {
    const session = requireSession(c);
    const id = fundraiserId(c.req.param('id'));
    fundraisers.checkMayManage(c.get('deps'), session, id);
    // The body is optional: without one, nothing but the fundraiser is published.
    const hasBody = (c.req.header('content-length') ?? '0') !== '0' || c.req.header('transfer-encoding');
    const { publishArtist } = hasBody ? await jsonBody(c, publishFundraiserSchema) : { publishArtist: false };
    return c.json(fundraisers.publishFundraiser(c.get('deps'), session, id, publishArtist));
  })
  .patch('/fundraisers/:id/update', async (c) => {
    const session = requireSession(c);
    const id = fundraiserId(c.req.param('id'));
    fundraisers.checkMayUpdate(c.get('deps'), session, id);
    const input = await jsonBody(c, updateFundraiserSchema);
    return c.json(fundraisers.updateFundraiser(c.get('deps'), session, id, input));
  })
  .patch('/fundraisers/:id/updatev1', async (c) => {
    const session = requireSession(c);
    const id = fundraiserId(c.req.param('id'));
    const deps = c.get('deps');
    const request = multipartRequest(c);
    const saved = await legacyForm.withLegacyEditRoom(deps, session, id, request.declaredBytes, async (limit) => {
      const form = await receiveForm(request, {
        field: 'albumZip',
        tempFile: deps.media.tempFile(),
        fileRequired: false,
        maxFields: 30,
        ...limit,
      });
      try {
        const input = parseWith(updateFundraiserV1Schema, form.fields);
        return await legacyForm.updateFundraiserV1(deps, session, id, input, form.file);
      } finally {
        if (form.file) await fs.rm(form.file.tempFile, { force: true });
      }
    });
    return c.json(saved);
  })
  .delete('/fundraisers/:id', (c) => {
    const session = requireSession(c);
    fundraisers.deleteFundraiser(c.get('deps'), session, fundraiserId(c.req.param('id')));
    return c.json(okSchema.parse({ ok: true }));
  })
  // Spec part 1 section 7: deleting an artist removes its fundraisers too, so it is answered here.
  .delete('/artists/:id', (c) => {
    const session = requireSession(c);
    fundraisers.deleteArtistWithFundraisers(c.get('deps'), session, pathId(c.req.param('id'), ARTIST_NOT_FOUND));
    return c.json(okSchema.parse({ ok: true }));
  });
