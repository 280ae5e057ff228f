import path from 'node:path';
import { Hono, type Context } from 'hono';
import { invalid, notFound } from '../../errors';
import { pathId } from '../../http/ids';
import type { AppEnv } from '../../http/context';
import { cacheControlFor } from '../../http/send-file';
import { sendPreparation, sendTrackDownload } from '../../http/send-album';
import { sendMedia } from '../../http/send-media';
import * as albumFormats from '../fundraisers/album-formats';
import { purchasedAlbum } from '../fundraisers/album-media';
import { OFFLINE_SAVE_QUERY } from '../../../shared/constants';
import { mediaRequestOf } from '../../http/request-context';
import { countDownload, countPlay } from '../insight/service';
import {
  forgetStreamGrant,
  fullTrack,
  fundraiserOfTrack,
  mediaMessages,
  type TrackAudio,
  trackPreview,
  trackStream,
} from './service';

const trackId = (raw: string) => pathId(raw, mediaMessages.trackNotFound);

/**
 * A preview or a stream begun, for the track's fundraiser's insight (issue 29): never an album being
 * saved for offline (a copy kept, not a play).
 */
function countTrackPlay(c: Context<AppEnv>, trackId: number, kind: 'preview_play' | 'stream', response: Response) {
  if (c.req.query(OFFLINE_SAVE_QUERY.name) === OFFLINE_SAVE_QUERY.value) return;
  const deps = c.get('deps');
  const fundraiserId = fundraiserOfTrack(deps, trackId);
  if (fundraiserId !== undefined) countPlay(deps, fundraiserId, kind, mediaRequestOf(c, response.status));
}

function sendAudio(c: Context<AppEnv>, audio: TrackAudio) {
  return sendMedia(c, {
    path: audio.path,
    contentType: 'audio/mpeg',
    cacheControl: cacheControlFor(audio),
    version: audio.version,
  });
}

// DESIGN.md section 4, audio URLs: GET (and HEAD, which Hono answers through GET) with Range.
export const trackAudioRoutes = new Hono<AppEnv>()
  .get('/tracks/:id/preview', async (c) => {
    const id = trackId(c.req.param('id'));
    const audio = trackPreview(c.get('deps'), c.get('session'), id, c.req.query('v'));
    const response = await sendAudio(c, audio);
    // Gone between the lookup and the read: a new rendition replaced it, and the client's URL is stale.
    if (!response) throw notFound(mediaMessages.notReady);
    countTrackPlay(c, id, 'preview_play', response);
    return response;
  })
  .get('/tracks/:id/stream', async (c) => {
    const deps = c.get('deps');
    const session = c.get('session');
    const id = trackId(c.req.param('id'));
    const requested = c.req.query('v');
    const quality = c.req.query('quality');
    if (quality === 'low') return sendDataSaver(c, id);
    if (quality !== undefined && quality !== 'standard') throw invalid(mediaMessages.unknownQuality);
    const audio = trackStream(deps, session, id, requested, c.req.query('grant'));
    const response = await sendAudio(c, audio);
    if (response) {
      countTrackPlay(c, id, 'stream', response);
      return response;
    }
    if (!audio.remembered) throw notFound(mediaMessages.notReady);
    // The remembered rendition was replaced since: look the track up again.
    forgetStreamGrant(deps, session, id);
    const current = await sendAudio(c, trackStream(deps, session, id, requested));
    if (!current) throw notFound(mediaMessages.notReady);
    countTrackPlay(c, id, 'stream', current);
    return current;
  })
  /** Prepares one track in a download format (POST; idempotent) and says how far it has come (issue 27). */
  .on(['GET', 'POST'], '/tracks/:id/formats/:format', (c) => {
    const deps = c.get('deps');
    const id = trackId(c.req.param('id'));
    const grant = c.req.query('grant');
    const track = fullTrack(deps, c.get('session'), id, grant);
    const format = albumFormats.formatOf(c.req.param('format'));
    const query = new URLSearchParams({ format, ...(grant === undefined ? {} : { grant }) });
    return sendPreparation(
      c,
      albumFormats.prepareFormat(deps, purchasedAlbum(deps, track.fundraiserId), format, {
        retry: c.req.method === 'POST',
        trackId: id,
        downloadUrl: `/api/tracks/${id}/download?${query}`,
      }),
    );
  })
  /** One track in `?format=` (the original without one), once prepared: 409 until then. */
  .get('/tracks/:id/download', async (c) => {
    const deps = c.get('deps');
    const id = trackId(c.req.param('id'));
    const track = fullTrack(deps, c.get('session'), id, c.req.query('grant'));
    const format = albumFormats.formatOf(c.req.query('format') ?? 'original');
    const row = purchasedAlbum(deps, track.fundraiserId);
    const response = await sendTrackDownload(c, await albumFormats.trackFormatFile(deps, row, id, format));
    countDownload(deps, track.fundraiserId, format, mediaRequestOf(c, response.status));
    return response;
  });

/**
 * The Data saver file of a track (DESIGN.md, contract details for wave 3, offline quality), for
 * whoever may hear the track: made on the first request (which waits for it), then with Range like
 * the standard stream. Bought music: the buyer's browser may keep it, shared caches may not.
 */
async function sendDataSaver(c: Context<AppEnv>, id: number) {
  const deps = c.get('deps');
  const track = fullTrack(deps, c.get('session'), id, c.req.query('grant'));
  if (track.status !== 'ready') throw notFound(mediaMessages.notReady);
  const file = await albumFormats.offlineLowFile(deps, track.fundraiserId, id, c.req.raw.signal);
  const response = await sendMedia(c, {
    path: file.path,
    contentType: file.contentType,
    cacheControl: cacheControlFor({ cache: 'private', immutable: false }),
    version: path.basename(file.path),
  });
  if (!response) throw notFound(mediaMessages.notReady);
  countTrackPlay(c, id, 'stream', response);
  return response;
}
