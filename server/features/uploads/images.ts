import sharp from 'sharp';
import { IMAGE_WIDTHS } from '../../../shared/constants';
import type { MediaStore } from '../../infra/storage/media';

/** JPEG and PNG by their first bytes; the file's name and the browser's claim don't count. */
export function isJpegOrPng(head: Buffer): boolean {
  const jpeg = head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  const png = head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return jpeg || png;
}

/** 40 megapixels (e.g. 8000 × 5000): larger than any camera photo, small enough to decode safely. */
const MAX_INPUT_PIXELS = 40_000_000;

// One render at a time: decoding a big photo takes a few hundred megabytes and all of a small
// VM's CPU, and a queue keeps a burst of uploads from multiplying that.
let rendering = false;
const queue: (() => void)[] = [];

async function inRenderQueue<T>(task: () => Promise<T>): Promise<T> {
  if (rendering) await new Promise<void>((resolve) => queue.push(resolve));
  rendering = true;
  try {
    return await task();
  } finally {
    const next = queue.shift();
    if (next) next();
    else rendering = false;
  }
}

/**
 * Re-encodes the upload into each width as WebP and JPEG. The source is decoded once, to at
 * most 1200 px, and every rendition is made from that. Re-encoding drops all metadata (EXIF,
 * GPS) because sharp keeps it only when asked; `rotate()` first applies the EXIF orientation so
 * photos stay upright without it. JPEG has no transparency, so it gets a white background.
 */
export function renderImage(source: string, id: string, media: MediaStore): Promise<void> {
  return inRenderQueue(async () => {
    const largest = Math.max(...IMAGE_WIDTHS);
    const { data, info } = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    for (const width of IMAGE_WIDTHS) {
      const resized = () => sharp(data, raw).resize({ width, height: width, fit: 'inside', withoutEnlargement: true });
      await Promise.all([
        resized()
          .webp({ quality: 80 })
          .toFile(media.imageFile(id, width, 'webp')),
        resized()
          .flatten({ background: '#ffffff' })
          .jpeg({ quality: 82, mozjpeg: true })
          .toFile(media.imageFile(id, width, 'jpg')),
      ]);
    }
  });
}
