import type { Context } from 'hono';
import type { FormatPreparation } from '../../shared/answers/formats';
import type { Deps } from '../deps';
import { notFound } from '../errors';
import type { AlbumDownload } from '../features/fundraisers/album-media';
import { storedEntries, zipStream, zipStreamSize } from '../infra/storage/zip-stream';
import type { AppEnv } from './context';
import { withNodeBody } from './node-response';
import { sendMedia } from './send-media';

/**
 * Answers an album download (the owner's and buyers' 'Download songs', the receipt's link) as a
 * zip streamed while it is built: the first bytes leave at once, memory stays flat. HEAD answers
 * the same headers without opening a file (Hono would run the handler for HEAD and drop a body
 * nobody cancels). A legacy zip goes through sendFile, so an interrupted download can resume with
 * Range.
 */
export async function sendAlbum(c: Context<AppEnv>, deps: Deps, album: AlbumDownload): Promise<Response> {
  const disposition = `attachment; filename*=UTF-8''${encodeURIComponent(album.fileName)}`;
  if (album.kind === 'zip') {
    const response = await sendMedia(c, {
      path: album.path,
      contentType: 'application/zip',
      cacheControl: 'private, no-store',
      version: album.version,
      downloadName: album.fileName,
    });
    if (!response) {
      deps.logger.error({ path: album.path }, 'album download: legacy zip missing on disk');
      throw notFound('The album zip is no longer available.');
    }
    // On the file's answer only: an error page must not be saved as "Album.zip".
    if (response.status !== 302) response.headers.set('content-disposition', disposition);
    return response;
  }
  c.header('content-disposition', disposition);
  c.header('content-type', 'application/zip');
  c.header('cache-control', 'private, no-store');
  if (c.req.method === 'HEAD') {
    c.header('content-length', String(zipStreamSize(album.entries)));
    return c.body(null, 200);
  }
  const zip = zipStream(
    album.entries,
    (error) => deps.logger.error({ err: error, fileName: album.fileName }, 'album download: zip failed while sending'),
    // Files on local disk are read through their descriptors; a bucket's objects as streams.
    deps.media.objects.kind === 'local' ? undefined : storedEntries(deps.media.read),
  );
  c.header('content-length', String(zip.size));
  // Under Node the zip is written to the response itself, through two reused buffers (zip-stream.ts).
  return withNodeBody(c, c.body(zip.body), zip.writeTo);
}

/**
 * A download format's progress (issue 27): a POST, which asks for the preparation, is "202
 * Accepted" whatever it finds (DESIGN.md, formats); a GET, which only asks how far it is, 200.
 */
export async function sendPreparation(c: Context<AppEnv>, preparation: Promise<FormatPreparation>): Promise<Response> {
  const answer = await preparation;
  c.header('cache-control', 'no-store');
  return c.json(answer, c.req.method === 'POST' ? 202 : 200);
}

/** One track's file as a download (Content-Disposition: attachment), from wherever the store keeps it. */
export async function sendTrackDownload(
  c: Context<AppEnv>,
  file: { path: string; contentType: string; downloadName: string; version: string },
): Promise<Response> {
  const response = await sendMedia(c, {
    path: file.path,
    contentType: file.contentType,
    cacheControl: 'private, no-store',
    version: file.version,
    downloadName: file.downloadName,
  });
  if (!response) throw notFound('This file is no longer available. Please choose the format again.');
  if (response.status !== 302) {
    response.headers.set(
      'content-disposition',
      `attachment; filename*=UTF-8''${encodeURIComponent(file.downloadName)}`,
    );
  }
  return response;
}
