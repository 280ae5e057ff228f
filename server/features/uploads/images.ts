import sharp from 'sharp';
import { IMAGE_WIDTHS } from '../../../shared/constants';
import type { MediaStore } from '../../infra/storage/media';

/** JPEG and PNG by their first bytes; the file's name and the browser's claim don't count. */
export function isJpegOrPng(head: Buffer): boolean {
  const jpeg = head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  const png = head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return jpeg || png;
}

/**
 * Re-encodes the upload into each width as WebP and JPEG. Re-encoding drops all metadata (EXIF,
 * GPS) because sharp only keeps it when asked; `rotate()` first applies the EXIF orientation so
 * photos stay upright without it. Pixel count is capped against decompression bombs.
 */
export async function renderImage(source: string, id: string, media: MediaStore): Promise<void> {
  const input = sharp(source, { limitInputPixels: 80_000_000, failOn: 'error' }).rotate();
  await input.metadata();
  await Promise.all(
    IMAGE_WIDTHS.flatMap((width) => {
      const resized = input.clone().resize({ width, height: width, fit: 'inside', withoutEnlargement: true });
      return [
        resized
          .clone()
          .webp({ quality: 80 })
          .toFile(media.imageFile(id, width, 'webp')),
        resized
          .clone()
          .jpeg({ quality: 82, mozjpeg: true })
          .toFile(media.imageFile(id, width, 'jpg')),
      ];
    }),
  );
}
