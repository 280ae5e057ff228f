import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createImageWorker } from '../../server/features/uploads/images';
import { png } from '../fixtures/images';

// The image worker ends when idle (server/features/uploads/images.ts). An ended worker's exit can
// arrive after the next image has started a new one; that late exit must not fail the new image.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soundcause-image-worker-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the image worker', () => {
  it('renders every image when each one comes just as the last worker is ending', async () => {
    const source = path.join(dir, 'source.png');
    fs.writeFileSync(source, await png(64, 48));
    // Ends 1 ms after each image, so every next image meets a worker being killed.
    const worker = createImageWorker(1);
    for (let i = 0; i < 8; i++) {
      const output = (ext: string) => path.join(dir, `out-${i}.${ext}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await worker.render({ source, outputs: [{ width: 32, webp: output('webp'), jpg: output('jpg') }] });
      expect(fs.statSync(output('webp')).size).toBeGreaterThan(0);
    }
  }, 60_000);
});
