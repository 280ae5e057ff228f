import sharp from 'sharp';

// The image worker (images.ts starts it): a child process that renders uploaded images with
// sharp, one job at a time, so that libvips' memory goes when the process does.

export type RenderJob = { source: string; outputs: { width: number; webp: string; jpg: string }[] };
export type RenderResult = { ok: true } | { error: string };

/** 40 megapixels (e.g. 8000 × 5000): larger than any camera photo, small enough to decode safely. */
const MAX_INPUT_PIXELS = 40_000_000;

// Every image is rendered once: a cache would only keep decoded pixels after the work is done.
sharp.cache(false);

/**
 * The source is decoded once, to at most the largest width, and every rendition is made from that.
 * Re-encoding drops all metadata (EXIF, GPS) because sharp keeps it only when asked; `rotate()`
 * first applies the EXIF orientation so photos stay upright without it. JPEG has no transparency,
 * so it gets a white background.
 */
async function render({ source, outputs }: RenderJob) {
  const largest = Math.max(...outputs.map((output) => output.width));
  const { data, info } = await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  for (const { width, webp, jpg } of outputs) {
    const resized = () => sharp(data, raw).resize({ width, height: width, fit: 'inside', withoutEnlargement: true });
    await Promise.all([
      resized().webp({ quality: 80 }).toFile(webp),
      resized().flatten({ background: '#ffffff' }).jpeg({ quality: 82, mozjpeg: true }).toFile(jpg),
    ]);
  }
}

process.on('message', (job: RenderJob) => {
  render(job).then(
    () => process.send!({ ok: true } satisfies RenderResult),
    (error: unknown) => process.send!({ error: String(error) } satisfies RenderResult),
  );
});
// The server went away (ended, or crashed): so does its worker.
process.on('disconnect', () => process.exit(0));
