import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormatPreparation } from '../../shared/answers/formats';
import { type DownloadFormatId, isDownloadFormat } from '../../shared/download-formats';
import { errorMessage } from '../api/http';
import { type DownloadTarget, preparationQueryOptions, startPreparation } from './download-formats-api';

// Preparing a download in a format (issue 27): choosing one asks the server to prepare it (the
// durable job queue does the work, so it goes on through restarts), the page follows its progress,
// and the download starts by itself once it is ready — in the tab that asked, once. Mirlo's fans
// met a spinner that failed, "no purchase found" just after buying, and a race between Generate
// and Download; here there is one button, progress in tracks, the failed track named with a Try
// again, and the file only asked for once the server says it is there.

/**
 * What the download shows. `starting` is the moment between the choice and the server's first
 * answer; `started` says the download was started by itself (else the page offers the link).
 */
export type DownloadView =
  | { state: 'idle' }
  | { state: 'starting'; format: DownloadFormatId }
  | { state: 'preparing'; format: DownloadFormatId; readyTracks: number; totalTracks: number }
  | { state: 'ready'; format: DownloadFormatId; downloadUrl: string; started: boolean }
  | {
      state: 'failed';
      format: DownloadFormatId;
      /** The track the server could not prepare, or the request's own failure. */
      failed?: FormatPreparation['failed'];
      message?: string;
    };

export type ViewInput = {
  format: DownloadFormatId | null;
  /** Remembered from an earlier page (download-preparation memory), not chosen on this one. */
  restored: boolean;
  posting: boolean;
  postError: unknown;
  preparation: FormatPreparation | undefined;
  readError: unknown;
  /** The download was started by itself (the tab asked and it is ready). */
  started: boolean;
};

const unreachable = 'The server could not be reached. Please try again.';

/** What to show for a chosen format, from the server's answers so far. */
export function viewOf(input: ViewInput): DownloadView {
  const { format, preparation } = input;
  if (!format) return { state: 'idle' };
  if (input.posting) return { state: 'starting', format };
  if (input.postError) return { state: 'failed', format, message: errorMessage(input.postError, unreachable) };
  if (preparation && preparation.format === format) {
    switch (preparation.status) {
      case 'ready':
        return { state: 'ready', format, downloadUrl: preparation.downloadUrl, started: input.started };
      case 'failed':
        return { state: 'failed', format, failed: preparation.failed };
      case 'preparing':
        return {
          state: 'preparing',
          format,
          readyTracks: preparation.readyTracks,
          totalTracks: preparation.totalTracks,
        };
    }
  }
  // A remembered preparation that cannot be read (gone, or no longer this holder's) is not news.
  if (input.restored) return { state: 'idle' };
  if (input.readError) return { state: 'failed', format, message: errorMessage(input.readError, unreachable) };
  return { state: 'starting', format };
}

// What this device remembers of a chosen format, so a page opened again (reloaded, or in another
// tab) shows a preparation under way. The tab that asked remembers it for its session and starts
// the download when it is ready; other tabs are only shown it, for a few hours, so that one choice
// never downloads twice. Only the format is kept, under the album's or the track's id.

const MEMORY_PREFIX = 'soundcause-download:';
const DEVICE_MEMORY_MS = 6 * 60 * 60 * 1000;

type Remembered = { format: DownloadFormatId; askedHere: boolean };

/** Storage can be refused (a private window, a full disk): then nothing is remembered. */
function withStorage<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

function remember(key: string, format: DownloadFormatId) {
  withStorage(() => {
    sessionStorage.setItem(MEMORY_PREFIX + key, format);
    localStorage.setItem(MEMORY_PREFIX + key, JSON.stringify({ format, at: Date.now() }));
  });
}

function forget(key: string) {
  withStorage(() => {
    sessionStorage.removeItem(MEMORY_PREFIX + key);
    localStorage.removeItem(MEMORY_PREFIX + key);
  });
}

function recall(key: string): Remembered | null {
  return (
    withStorage(() => {
      const here = sessionStorage.getItem(MEMORY_PREFIX + key);
      if (here && isDownloadFormat(here)) return { format: here, askedHere: true };
      const onDevice: unknown = JSON.parse(localStorage.getItem(MEMORY_PREFIX + key) ?? 'null');
      if (typeof onDevice !== 'object' || onDevice === null) return null;
      const { format, at } = onDevice as { format?: unknown; at?: unknown };
      if (typeof format !== 'string' || !isDownloadFormat(format) || typeof at !== 'number') return null;
      if (Date.now() - at > DEVICE_MEMORY_MS) return null;
      return { format, askedHere: false };
    }) ?? null
  );
}

/** Saves a file the way a link with `download` does: a zip does not take the page away. */
function startDownload(url: string) {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

type Chosen = { format: DownloadFormatId; autoDownload: boolean; restored: boolean; attempt: number };

export type DownloadPreparation = {
  view: DownloadView;
  /** Prepares `format` (joining a preparation under way) and downloads it when ready. */
  choose: (format: DownloadFormatId) => void;
  /** Asks again for the format last chosen: after a failure, the failed tracks are tried again. */
  retry: () => void;
};

/** The preparation of `target` in the format chosen last on this page (or remembered). */
export function useDownloadPreparation(target: DownloadTarget): DownloadPreparation {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Chosen | null>(() => {
    const remembered = recall(target.memoryKey);
    return remembered && { format: remembered.format, autoDownload: remembered.askedHere, restored: true, attempt: 0 };
  });
  const attempts = useRef(0);
  const start = useMutation({
    mutationFn: (format: DownloadFormatId) => startPreparation(target, format),
    onSuccess: (answer, format) => queryClient.setQueryData(preparationQueryOptions(target, format).queryKey, answer),
  });
  const format = chosen?.format ?? 'original';
  const status = useQuery({
    ...preparationQueryOptions(target, format),
    // Read only once the server has been asked: before that there is nothing to read.
    enabled: chosen !== null && !start.isPending && !start.isError,
  });
  const preparation = status.data;
  const readyUrl =
    chosen?.autoDownload && !start.isPending && preparation?.status === 'ready' && preparation.format === chosen.format
      ? preparation.downloadUrl
      : null;

  // The download starts once per choice, whatever else renders the page meanwhile.
  const startedFor = useRef<number | null>(null);
  const attempt = chosen?.attempt ?? null;
  const { memoryKey } = target;
  useEffect(() => {
    if (readyUrl === null || attempt === null || startedFor.current === attempt) return;
    startedFor.current = attempt;
    // Downloaded: a reload must not download it again.
    forget(memoryKey);
    startDownload(readyUrl);
  }, [readyUrl, attempt, memoryKey]);

  const restoredAndGone = Boolean(chosen?.restored && status.isError);
  useEffect(() => {
    if (restoredAndGone) forget(memoryKey);
  }, [restoredAndGone, memoryKey]);

  const { mutate } = start;
  const choose = useCallback(
    (next: DownloadFormatId) => {
      attempts.current += 1;
      setChosen({ format: next, autoDownload: true, restored: false, attempt: attempts.current });
      remember(target.memoryKey, next);
      mutate(next);
    },
    [target, mutate],
  );

  const view = viewOf({
    format: chosen?.format ?? null,
    restored: Boolean(chosen?.restored),
    posting: start.isPending,
    postError: start.error,
    preparation,
    readError: status.error,
    started: readyUrl !== null,
  });
  const retry = () => {
    if (chosen) choose(chosen.format);
  };
  return { view, choose, retry };
}
