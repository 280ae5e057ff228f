import { Hono, type Context } from 'hono';
import { notFound } from '../../errors';
import { pathId } from '../../http/ids';
import type { AppEnv } from '../../http/context';
import { cacheControlFor } from '../../http/send-file';
import { sendMedia } from '../../http/send-media';
import { forgetStreamGrant, mediaMessages, type TrackAudio, trackPreview, trackStream } from './service';

const trackId = (raw: string) => pathId(raw, mediaMessages.trackNotFound);

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
    const audio = trackPreview(c.get('deps'), c.get('session'), trackId(c.req.param('id')), c.req.query('v'));
    const response = await sendAudio(c, audio);
    // Gone between the lookup and the read: a new rendition replaced it, and the client's URL is stale.
    if (!response) throw notFound(mediaMessages.notReady);
    return response;
  })
  .get('/tracks/:id/stream', async (c) => {
    const deps = c.get('deps');
    const session = c.get('session');
    const id = trackId(c.req.param('id'));
    const requested = c.req.query('v');
    const audio = trackStream(deps, session, id, requested, c.req.query('grant'));
    const response = await sendAudio(c, audio);
    if (response) return response;
    if (!audio.remembered) throw notFound(mediaMessages.notReady);
    // The remembered rendition was replaced since: look the track up again.
    forgetStreamGrant(deps, session, id);
    const current = await sendAudio(c, trackStream(deps, session, id, requested));
    if (!current) throw notFound(mediaMessages.notReady);
    return current;
  });
