import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchPersistent } from '../tests/fixtures/browser';
import { logIn } from '../tests/fixtures/e2e-app';
import { createFundraiser, uploadListenableMusic } from '../tests/fixtures/fundraisers';
import { startTestServer, verifiedUser } from '../tests/fixtures/test-server';

// Issue 12, offline listening: the time from a click on Play to the first audio frame (the media
// element's `playing` event) for a track saved on the device and answered by the service worker,
// next to the same album played from the network, in one run, in the built app in Chromium.
// Needs `npm run build` first (npm run bench does not build).

const RUNS = 15;

/** Milliseconds from clicking Play on track 1 to the element's first `playing`, once per page load. */
async function clickToFirstFrame(page: Page, albumUrl: string): Promise<number> {
  await page.goto(albumUrl);
  await page.getByRole('button', { name: 'Play Track 1' }).waitFor();
  await page.evaluate(() => {
    const timing = globalThis as unknown as { firstFrame?: Promise<number>; onFirstFrame?: (at: number) => void };
    timing.firstFrame = new Promise<number>((resolve) => (timing.onFirstFrame = resolve));
  });
  const clickedAt = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Play Track 1' }).click();
  const firstFrameAt = await page.evaluate(() => (globalThis as unknown as { firstFrame: Promise<number> }).firstFrame);
  await page.getByRole('region', { name: 'Music player' }).getByRole('button', { name: 'Pause' }).click();
  return firstFrameAt - clickedAt;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]!;

export async function benchOfflinePlayback() {
  const dist = path.resolve('dist');
  if (!fs.existsSync(path.join(dist, 'sw.js'))) {
    console.log('\nOffline playback: skipped (run `npm run build` first)');
    return;
  }
  const server = await startTestServer({ CLIENT_DIST_DIR: dist });
  const email = 'bench-offline@example.org';
  const owner = await verifiedUser(server, email);
  const uploads = await uploadListenableMusic(owner, [180]);
  const album = await createFundraiser(owner, { details: { name: 'Bench Album' }, uploads });
  await server.jobs.drain();
  const albumUrl = `${server.baseUrl}/music/album/${album.id}`;

  const { context, close } = await launchPersistent();
  try {
    // Howler's audio elements are never in the document: each one reports its own `playing`.
    await context.addInitScript(() => {
      const play = HTMLMediaElement.prototype.play;
      const watched = new WeakSet<HTMLMediaElement>();
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        if (!watched.has(this)) {
          watched.add(this);
          this.addEventListener('playing', () =>
            (globalThis as unknown as { onFirstFrame?: (at: number) => void }).onFirstFrame?.(performance.now()),
          );
        }
        return play.call(this);
      };
    });
    const page = await context.newPage();
    await logIn(page, server.baseUrl, email);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();

    await clickToFirstFrame(page, albumUrl); // warm-up: code, HTTP connections
    const network: number[] = [];
    for (let i = 0; i < RUNS; i++) network.push(await clickToFirstFrame(page, albumUrl));

    await page.goto(albumUrl);
    await page.getByRole('button', { name: 'Save for offline' }).click();
    await page.getByText('Saved for offline').waitFor({ timeout: 60_000 });
    await context.setOffline(true);
    const saved: number[] = [];
    for (let i = 0; i < RUNS; i++) saved.push(await clickToFirstFrame(page, albumUrl));

    const show = (name: string, times: number[]) =>
      console.log(
        `  ${name.padEnd(50)} median ${median(times).toFixed(0).padStart(4)} ms  p90 ${p90(times).toFixed(0)} ms`,
      );
    console.log(`\nOffline playback: click on Play to the first audio frame, a 3-minute track, ${RUNS} runs each`);
    show('baseline: from the network (service worker passes it on)', network);
    show('saved on the device, offline (service worker, IndexedDB)', saved);
    console.log(`  ${''.padEnd(50)} ${(median(saved) / median(network)).toFixed(2)}× the network's time`);
  } finally {
    await close();
    await server.close();
  }
}
