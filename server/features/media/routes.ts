import { Hono, type Context } from 'hono';
import { notFound } from '../../errors';
import { pathId } from '../../http/ids';
import type { AppEnv } from '../../http/context';
import { cacheControlFor, sendFile } from '../../http/send-file';
import { mediaMessages, type TrackAudio, trackPreview, trackStream } from './service';

const trackId = (raw: string) => pathId(raw, mediaMessages.trackNotFound);

async function sendAudio(c: Context<AppEnv>, audio: TrackAudio) {
  const response = await sendFile(c, {
    path: audio.path,
    contentType: 'audio/mpeg',
    cacheControl: cacheControlFor(audio),
    version: audio.version,
  });
  // Gone between the lookup and the read: a new rendition replaced it, and the client's URL is stale.
  if (!response) throw notFound(mediaMessages.notReady);
  return response;
}

// DESIGN.md section 4, audio URLs: GET (and HEAD, which Hono answers through GET) with Range.
export const trackAudioRoutes = new Hono<AppEnv>()
  .get('/tracks/:id/preview', (c) =>
    sendAudio(c, trackPreview(c.get('deps'), c.get('session'), trackId(c.req.param('id')), c.req.query('v'))),
  )
  .get('/tracks/:id/stream', (c) =>
    sendAudio(c, trackStream(c.get('deps'), c.get('session'), trackId(c.req.param('id')), c.req.query('v'))),
  );
