import { type ChildProcess, fork } from 'node:child_process';
import { IMAGE_WIDTHS } from '../../../shared/constants';
import type { MediaStore } from '../../infra/storage/media';
import { projectRoot, serverEntry } from '../../paths';
import type { RenderJob, RenderResult } from './image-worker';

/** JPEG and PNG by their first bytes; the file's name and the browser's claim don't count. */
export function isJpegOrPng(head: Buffer): boolean {
  const jpeg = head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  const png = head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  return jpeg || png;
}

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
 * Re-encodes the upload into each width as WebP and JPEG (image-worker.ts says how). sharp
 * (libvips) runs in a child process that ends when no image has come for a while: libvips' threads
 * leave the memory they used with the process (a server that rendered a dozen images held 200 MB
 * more at idle, glibc arenas it never gives back), and a small VM's server should not (issue 13).
 * The renditions are then kept in the media store; none is when one fails.
 */
export async function renderImage(source: string, id: string, media: MediaStore): Promise<void> {
  const outputs = IMAGE_WIDTHS.map((width) => ({
    width,
    webp: media.imageFile(id, width, 'webp'),
    jpg: media.imageFile(id, width, 'jpg'),
  }));
  const files = outputs.flatMap(({ webp, jpg }) => [webp, jpg]);
  await inRenderQueue(() => imageWorker.render({ source, outputs }));
  try {
    await Promise.all(files.map((file) => media.store(file)));
  } catch (error) {
    await media.discard(...files);
    throw error;
  }
}

/** How long the worker waits for another image before it ends. */
const WORKER_IDLE_MS = 10_000;

/**
 * The render worker: started on the first image, ended `idleMs` after the last (exported for its
 * test, which makes that short to race an ending worker against the next image).
 */
export function createImageWorker(idleMs: number) {
  let child: ChildProcess | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  // The job in flight and the worker it went to: a worker that ends late (one the idle timer
  // killed while the next image started a new one) must not fail the new worker's job.
  let pending: { worker: ChildProcess; resolve: () => void; reject: (error: Error) => void } | undefined;

  function start(): ChildProcess {
    const { file, execArgv } = serverEntry('image-worker', 'server/features/uploads/image-worker.ts');
    const started = fork(file, [], {
      cwd: projectRoot,
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    started.on('message', (message: RenderResult) => {
      const waiting = pending?.worker === started ? pending : undefined;
      if (!waiting) return;
      pending = undefined;
      if ('error' in message) waiting.reject(new Error(message.error));
      else waiting.resolve();
    });
    started.on('exit', (code, signal) => {
      if (child === started) child = undefined;
      if (pending?.worker !== started) return;
      pending.reject(new Error(`the image worker ended (${signal ?? code})`));
      pending = undefined;
    });
    // An idle worker never keeps the server (or a test run) alive.
    started.unref();
    started.channel?.unref();
    return started;
  }

  return {
    render(job: RenderJob): Promise<void> {
      clearTimeout(idleTimer);
      child ??= start();
      const worker = child;
      worker.channel?.ref();
      return new Promise<void>((resolve, reject) => {
        pending = { worker, resolve, reject };
        worker.send(job);
      }).finally(() => {
        worker.channel?.unref();
        idleTimer = setTimeout(() => {
          if (child === worker) child = undefined;
          worker.kill();
        }, idleMs).unref();
      });
    },
  };
}

const imageWorker = createImageWorker(WORKER_IDLE_MS);
