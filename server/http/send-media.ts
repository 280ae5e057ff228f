import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { isPublicKey } from '../infra/storage/s3-objects';
import type { AppEnv } from './context';
import { answerFor, sendFile, type SendFileOptions } from './send-file';

// A media file as an HTTP answer, wherever the media store keeps it (DESIGN.md, contract details
// for wave 3, object storage). On local disk: the file itself (send-file.ts). In a bucket: the
// permission was checked before this is called, so the answer is a 302 to a presigned GET that
// works for a few minutes (the browser then takes the bytes, Range and all, from the store);
// public media (images, a published fundraiser's previews) go to MEDIA_PUBLIC_URL when set, a CDN
// in front of the bucket. With MEDIA_REDIRECTS=false the server passes the bytes on itself,
// ranges included, for stores the browser cannot reach.

export type SendMediaOptions = SendFileOptions & {
  /** Saved under this name (Content-Disposition: attachment) rather than played. */
  downloadName?: string;
};

/** Answers the media file, or null when there is none at `options.path` (the caller answers its own 404). */
export async function sendMedia(c: Context<AppEnv>, options: SendMediaOptions): Promise<Response | null> {
  const { media, config } = c.get('deps');
  const { objects } = media;
  if (!objects.link) return sendFile(c, options);
  const key = media.keyOf(options.path);
  if (!config.media.redirects) return passOn(c, options, key);
  const { publicUrl } = config.media;
  // Only what any cache may keep goes through the CDN: a draft's preview says 'private, no-store'.
  if (publicUrl && isPublicKey(key) && options.cacheControl.startsWith('public')) {
    // The redirect may be kept as long as the answer it stands for: an immutable URL's for good.
    return redirect(c, `${publicUrl}/${key}`, options.cacheControl);
  }
  const link = await objects.link(key, {
    method: c.req.method === 'HEAD' ? 'HEAD' : 'GET',
    contentType: options.contentType,
    downloadName: options.downloadName,
  });
  // Each ask is checked again (a refund ends access), and the link itself expires.
  return redirect(c, link, 'private, no-store');
}

function redirect(c: Context<AppEnv>, location: string, cacheControl: string): Response {
  return c.body(null, 302, { location, 'cache-control': cacheControl });
}

/** The object's bytes through the server, with the same validators and ranges as a local file. */
async function passOn(c: Context<AppEnv>, options: SendMediaOptions, key: string): Promise<Response | null> {
  const { objects } = c.get('deps').media;
  const info = await objects.stat(key);
  if (!info) return null;
  const answer = answerFor(c, options, { size: info.size, mtime: info.modified });
  const headers = options.downloadName
    ? {
        ...answer.headers,
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(options.downloadName)}`,
      }
    : answer.headers;
  if (answer.kind !== 'body' || c.req.method === 'HEAD') return c.body(null, answer.status, headers);
  const body = await objects.read(key, { start: answer.start, end: answer.end });
  if (!body) return null;
  return c.body(Readable.toWeb(body) as ReadableStream<Uint8Array>, answer.status, headers);
}
