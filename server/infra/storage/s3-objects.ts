import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import type * as Presigner from '@aws-sdk/s3-request-presigner';
import type { MediaObjects, ObjectLinkOptions } from './objects';

// Media in an S3-compatible bucket (Garage, SeaweedFS, Cloudflare R2, Backblaze B2, AWS S3) through
// the AWS SDK, the industry's client, not a home-made one (issue 25). Uploads go up as multipart
// uploads read from the finished local file a part at a time, so nothing is ever whole in memory;
// permission-checked media leave the server as a redirect to a presigned GET (send-media.ts).

// The SDK is loaded only by a site that uses a bucket: it adds about 20 MB to a process and
// 170 ms to its start (measured here), which the small VM's default should not pay for nothing.
const lazyRequire = createRequire(import.meta.url);
const sdk = () => {
  // The SDK is pinned (package.json) at a version that supports Node 20, which the deploy kit
  // installs; its notice that later versions will need Node 22 would only fill every start's log.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return loadSdk();
};
const loadSdk = () => ({
  ...(lazyRequire('@aws-sdk/client-s3') as typeof ClientS3),
  ...(lazyRequire('@aws-sdk/lib-storage') as typeof LibStorage),
  ...(lazyRequire('@aws-sdk/s3-request-presigner') as typeof Presigner),
});

/** How to reach the store: the media bucket's and the off-site backups' (DESIGN.md, wave 3). */
export type S3Connection = {
  /** Unset: AWS itself, by region. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (endpoint/bucket/key), which most self-hosted stores need. */
  forcePathStyle: boolean;
};

export type S3Client = ClientS3.S3Client;

/**
 * The origin a bucket's presigned links point at: the endpoint itself with path-style URLs, the
 * bucket's own host otherwise (AWS: bucket.s3.region.amazonaws.com). The pages' CSP lets media,
 * images and fetches (the offline save) come from it.
 */
export function bucketOrigin(connection: S3Connection, bucket: string): string {
  const endpoint = new URL(connection.endpoint ?? `https://s3.${connection.region}.amazonaws.com`);
  return connection.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${bucket}.${endpoint.host}`;
}

export function s3Client(connection: S3Connection): S3Client {
  return new (sdk().S3Client)({
    endpoint: connection.endpoint,
    region: connection.region,
    forcePathStyle: connection.forcePathStyle,
    credentials:
      connection.accessKeyId && connection.secretAccessKey
        ? { accessKeyId: connection.accessKeyId, secretAccessKey: connection.secretAccessKey }
        : undefined,
    // Stores other than AWS's (R2, B2, Garage) refuse the CRC32 checksums newer SDKs add to every
    // upload by default; they are asked for only where an operation needs one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An album zip or a proxied download holds a connection for as long as its listener takes;
    // the SDK's 50 would soon make uploads and the sweeps wait behind them.
    requestHandler: { httpAgent: { maxSockets: 500 }, httpsAgent: { maxSockets: 500 }, connectionTimeout: 10_000 },
  });
}

/** A place in a store: a bucket and a key prefix ("" for the bucket's top), as off-site backups name it. */
export type S3Location = { bucket: string; prefix: string };

const S3_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/** `s3://bucket/some/prefix` → its bucket and prefix (no slashes at the ends); null for anything else. */
export function parseS3Url(url: string): S3Location | null {
  const match = S3_URL.exec(url);
  if (!match) return null;
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((part) => part === '.' || part === '..')) return null;
  return { bucket: match[1]!, prefix };
}

/** A part of a multipart upload: S3's smallest but the last is 5 MiB; two in flight at most. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

/** How long a presigned link works: long enough to start playing, short enough that a refund ends it soon. */
export const LINK_SECONDS = 5 * 60;

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  zip: 'application/zip',
};

export const contentTypeOfKey = (key: string) =>
  CONTENT_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** Images and previews are public (MEDIA_PUBLIC_URL may serve them); the rest only through a presigned link. */
export const isPublicKey = (key: string) => key.startsWith('images/') || key.startsWith('previews/');

/** Every name is new (nothing is overwritten), so whatever holds a copy may keep it. */
const cacheControlOfKey = (key: string) =>
  isPublicKey(key) ? 'public, max-age=31536000, immutable' : 'private, max-age=31536000, immutable';

export const isNotFound = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404);

export type S3Objects = MediaObjects & {
  readonly bucket: string;
  readonly client: S3Client;
  /** A presigned GET of the object, valid LINK_SECONDS. */
  link(key: string, options: ObjectLinkOptions): Promise<string>;
  /**
   * Puts a local file (a path) or a stream's bytes as they are, with extra metadata (media-migrate
   * records each object's SHA-256), a multipart upload for anything over one part.
   */
  upload(key: string, from: string | Readable, metadata?: Record<string, string>): Promise<void>;
  /** Writes a small object only if there is none under `key` (If-None-Match: *); false when there was. */
  putIfAbsent(key: string, text: string): Promise<boolean>;
  /** Writes a small object, replacing any there. */
  putText(key: string, text: string): Promise<void>;
  /** The "folders" right under `prefix` (which ends in '/'): the common prefixes of its keys. */
  listFolders(prefix: string): Promise<string[]>;
  /** The object's user metadata (x-amz-meta-*) with its length, or null when there is none. */
  head(key: string): Promise<{ size: number; metadata: Record<string, string> } | null>;
};

export function s3Objects(client: S3Client, bucket: string): S3Objects {
  const {
    DeleteObjectCommand,
    GetObjectCommand,
    HeadObjectCommand,
    ListObjectsV2Command,
    PutObjectCommand,
    Upload,
    getSignedUrl,
  } = sdk();
  const put = (key: string, text: string, onlyIfAbsent: boolean) =>
    client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: text,
        ContentType: 'application/json',
        IfNoneMatch: onlyIfAbsent ? '*' : undefined,
      }),
    );
  const upload = async (key: string, from: string | Readable, metadata?: Record<string, string>) => {
    const body = typeof from === 'string' ? fs.createReadStream(from, { highWaterMark: 1024 * 1024 }) : from;
    try {
      await new Upload({
        client,
        params: {
          Bucket: bucket,
          Key: key,
          Body: body,
          ContentType: contentTypeOfKey(key),
          CacheControl: cacheControlOfKey(key),
          Metadata: metadata,
        },
        partSize: PART_BYTES,
        queueSize: PARTS_AT_ONCE,
        leavePartsOnError: false,
      }).done();
    } finally {
      body.destroy();
    }
  };
  const head = async (key: string) => {
    try {
      const answer = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return {
        size: answer.ContentLength ?? 0,
        modified: answer.LastModified ?? new Date(0),
        metadata: answer.Metadata ?? {},
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  };
  return {
    kind: 's3',
    bucket,
    client,
    upload,
    head,
    async putFile(key, file) {
      await upload(key, file);
      await fsp.rm(file, { force: true });
    },
    async stat(key) {
      const found = await head(key);
      return found && { size: found.size, modified: found.modified };
    },
    async read(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, Range: range && `bytes=${range.start}-${range.end}` }),
        );
        return answer.Body as Readable;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key)
            yield { key: object.Key, size: object.Size ?? 0, modified: object.LastModified ?? new Date(0) };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async putIfAbsent(key, text) {
      try {
        await put(key, text, true);
        return true;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 412) return false;
        throw error;
      }
    },
    async putText(key, text) {
      await put(key, text, false);
    },
    async listFolders(prefix) {
      const folders: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, Delimiter: '/', ContinuationToken: token }),
        );
        for (const common of page.CommonPrefixes ?? []) if (common.Prefix) folders.push(common.Prefix);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return folders;
    },
    link(key, { method, contentType, downloadName }) {
      const answer = {
        Bucket: bucket,
        Key: key,
        ResponseContentType: contentType,
        ResponseContentDisposition: downloadName
          ? `attachment; filename*=UTF-8''${encodeURIComponent(downloadName)}`
          : undefined,
      };
      const command = method === 'HEAD' ? new HeadObjectCommand(answer) : new GetObjectCommand(answer);
      return getSignedUrl(client, command, { expiresIn: LINK_SECONDS });
    },
  };
}
