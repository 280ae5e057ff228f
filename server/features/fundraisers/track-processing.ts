import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { fundraisers, fundraiserTracks } from '../../db/schema';
import type { Deps } from '../../deps';
import { AudioProblem, audioMessages, renderTrack, type RenderedAudio } from '../../infra/audio/transcode';
import { enqueue } from '../../infra/jobs/queue';
import { type JobHandler, PermanentJobError } from '../../infra/jobs/runner';
import { newRenditionName } from '../../infra/storage/media';
import { findUpload } from '../../infra/storage/upload-records';

// The track pipeline (issue 5; DESIGN.md section 3, Media): every uploaded track, and each
// fundraiser's preview track, is transcoded off the request path by a durable job. Jobs are queued
// in the transaction that changes the track, so a saved track always has its job.

export const jobKinds = {
  track: 'process-track',
  preview: 'process-preview',
  removeRenditions: 'remove-renditions',
} as const;

const trackPayload = z.object({ trackId: z.number().int() });
const previewPayload = z.object({ fundraiserId: z.number().int(), uploadId: z.string() });
const renditionName = z.string().regex(/^[A-Za-z0-9_-]+\.mp3$/);
const removalPayload = z.object({ streams: z.array(renditionName), previews: z.array(renditionName) });

type Renditions = z.infer<typeof removalPayload>;

/** A payload that does not parse will not parse on a retry either. */
function parsePayload<T>(schema: z.ZodType<T>, payload: unknown): T {
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new PermanentJobError(`bad job payload: ${parsed.error.message}`);
  return parsed.data;
}

/** What the owner reads when processing failed for a reason that is not the file's. */
export const processingFailedMessage = 'This track could not be processed. Please upload it again.';

export function queueTrackProcessing(db: Db, trackIds: number[]) {
  for (const trackId of trackIds) enqueue(db, jobKinds.track, { trackId });
}

export function queuePreviewProcessing(db: Db, fundraiserId: number, uploadId: string) {
  enqueue(db, jobKinds.preview, { fundraiserId, uploadId });
}

/** Renditions of tracks that are gone or replaced: removed by a job, after the change commits. */
export function queueRenditionRemoval(db: Db, files: { streams: (string | null)[]; previews: (string | null)[] }) {
  const payload: Renditions = {
    streams: files.streams.filter((name): name is string => Boolean(name)),
    previews: files.previews.filter((name): name is string => Boolean(name)),
  };
  if (payload.streams.length || payload.previews.length) enqueue(db, jobKinds.removeRenditions, payload);
}

/** The columns of a preview track whose upload changed: processing from scratch. */
export const freshPreviewTrack = {
  previewTrackStatus: 'processing',
  previewTrackStreamFile: null,
  previewTrackPreviewFile: null,
  previewTrackLoudnessLufs: null,
  previewTrackDurationSeconds: null,
  previewTrackError: null,
} as const;

type ProcessingDeps = Pick<Deps, 'db' | 'media' | 'logger' | 'ffmpeg' | 'streamGrants'>;

async function removeRenditions(deps: ProcessingDeps, files: Renditions) {
  await Promise.all([
    ...files.streams.map((name) => deps.media.remove(deps.media.streamFile(name))),
    ...files.previews.map((name) => deps.media.remove(deps.media.previewFile(name))),
  ]);
}

/** Renders an upload's original to two freshly named renditions. */
async function render(deps: ProcessingDeps, uploadId: string) {
  const upload = findUpload(deps.db, uploadId);
  if (!upload) return null;
  if (upload.kind !== 'track' || (upload.format !== 'wav' && upload.format !== 'mp3')) {
    throw new PermanentJobError(`upload ${uploadId} is not a track`);
  }
  const names = { stream: newRenditionName(), preview: newRenditionName() };
  const { media } = deps;
  const outputs = { stream: media.streamFile(names.stream), preview: media.previewFile(names.preview) };
  let audio: RenderedAudio;
  try {
    const original = media.trackFile(upload.id, upload.format);
    const rendered = await media.withLocalCopy(original, (input) => renderTrack(deps.ffmpeg, input, outputs));
    if (!rendered) throw new AudioProblem('unreadable', audioMessages.unreadable);
    audio = rendered;
    await media.store(outputs.stream);
    await media.store(outputs.preview);
  } catch (error) {
    await media.discard(outputs.stream, outputs.preview);
    // Silence will not go away on a second try; an unreadable file is retried, in case the
    // failure was the machine's rather than the file's.
    if (error instanceof AudioProblem && error.reason === 'silent') {
      throw new PermanentJobError(error.message, { cause: error });
    }
    throw error;
  }
  return { names, audio };
}

/** The owner's message for a job that failed for good. */
function failureMessage(error: unknown): string {
  if (error instanceof AudioProblem) return error.message;
  if (error instanceof PermanentJobError && error.cause instanceof AudioProblem) return error.cause.message;
  return processingFailedMessage;
}

function trackHandler(deps: ProcessingDeps): JobHandler {
  const { db } = deps;
  return {
    async run(payload) {
      const { trackId } = parsePayload(trackPayload, payload);
      const track = db.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, trackId)).get();
      if (!track?.uploadId) return; // removed, or a legacy v1 track: nothing to do
      const rendered = await render(deps, track.uploadId);
      if (!rendered) throw new PermanentJobError(`the upload of track ${trackId} is gone`);
      const { names, audio } = rendered;
      // Only if the track still has this upload: a replaced or deleted track keeps nothing.
      const previous = db.transaction((tx) => {
        const current = tx.select().from(fundraiserTracks).where(eq(fundraiserTracks.id, trackId)).get();
        if (current?.uploadId !== track.uploadId) return null;
        tx.update(fundraiserTracks)
          .set({
            status: 'ready',
            streamFile: names.stream,
            previewFile: names.preview,
            loudnessLufs: audio.loudnessLufs,
            durationSeconds: audio.durationSeconds,
            error: null,
          })
          .where(eq(fundraiserTracks.id, trackId))
          .run();
        // A grant remembering the rendition this one replaces would name a file about to go.
        if (current.streamFile) deps.streamGrants.clear();
        return current;
      });
      if (!previous) {
        await removeRenditions(deps, { streams: [names.stream], previews: [names.preview] });
        return;
      }
      await removeRenditions(deps, toRenditions(previous.streamFile, previous.previewFile));
    },
    giveUp(payload, error) {
      const parsed = trackPayload.safeParse(payload);
      if (!parsed.success) return;
      db.update(fundraiserTracks)
        .set({ status: 'failed', error: failureMessage(error) })
        .where(and(eq(fundraiserTracks.id, parsed.data.trackId), eq(fundraiserTracks.status, 'processing')))
        .run();
    },
  };
}

function toRenditions(stream: string | null, preview: string | null): Renditions {
  return { streams: stream ? [stream] : [], previews: preview ? [preview] : [] };
}

function previewHandler(deps: ProcessingDeps): JobHandler {
  const { db } = deps;
  const stillCurrent = (fundraiserId: number, uploadId: string) =>
    and(eq(fundraisers.id, fundraiserId), eq(fundraisers.previewTrackUploadId, uploadId));
  return {
    async run(payload) {
      const { fundraiserId, uploadId } = parsePayload(previewPayload, payload);
      const row = db.select().from(fundraisers).where(stillCurrent(fundraiserId, uploadId)).get();
      if (!row) return; // the preview track changed since: its own job processes the new one
      const rendered = await render(deps, uploadId);
      if (!rendered) throw new PermanentJobError(`the preview upload of fundraiser ${fundraiserId} is gone`);
      const { names, audio } = rendered;
      const previous = db.transaction((tx) => {
        const current = tx.select().from(fundraisers).where(stillCurrent(fundraiserId, uploadId)).get();
        if (!current) return null;
        tx.update(fundraisers)
          .set({
            previewTrackStatus: 'ready',
            previewTrackStreamFile: names.stream,
            previewTrackPreviewFile: names.preview,
            previewTrackLoudnessLufs: audio.loudnessLufs,
            previewTrackDurationSeconds: audio.durationSeconds,
            previewTrackError: null,
          })
          .where(eq(fundraisers.id, fundraiserId))
          .run();
        return current;
      });
      if (!previous) await removeRenditions(deps, { streams: [names.stream], previews: [names.preview] });
      else
        await removeRenditions(deps, toRenditions(previous.previewTrackStreamFile, previous.previewTrackPreviewFile));
    },
    giveUp(payload, error) {
      const parsed = previewPayload.safeParse(payload);
      if (!parsed.success) return;
      db.update(fundraisers)
        .set({ previewTrackStatus: 'failed', previewTrackError: failureMessage(error) })
        .where(stillCurrent(parsed.data.fundraiserId, parsed.data.uploadId))
        .run();
    },
  };
}

/** The job handlers of the track pipeline, for the job runner. */
export function trackJobHandlers(deps: ProcessingDeps): Record<string, JobHandler> {
  return {
    [jobKinds.track]: trackHandler(deps),
    [jobKinds.preview]: previewHandler(deps),
    [jobKinds.removeRenditions]: {
      async run(payload) {
        await removeRenditions(deps, parsePayload(removalPayload, payload));
      },
    },
  };
}
