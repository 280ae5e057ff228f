import { Howl } from 'howler';
import type { PlayerTrack } from '../../shared/schemas/library';
import { announceTrack, leaveMediaSession, showPlaybackState, showPosition } from './media-session';
import { currentTrack, type PlayerCommand } from './player-logic';
import { playerControls, type PlayerView, sendToPlayer, setLivePosition, usePlayerStore } from './player-store';

// The sound, in the one tab that plays (DESIGN.md section 3): a thin shell that follows the
// mirrored state and reports back what the audio did. Howler's html5 mode streams through an
// <audio> element, so a long track starts at once and seeks with Range requests.

/** Tracks are turned down to about this loudness (EBU R128), so albums sit at similar levels. */
const TARGET_LUFS = -16;
const PROGRESS_INTERVAL_MS = 1_000;
/** Waiting this long for data counts as a stalled connection: the stream is reopened where it was. */
const STALL_TIMEOUT_MS = 8_000;
const RETRY_DELAYS_MS = [1_000, 3_000, 8_000, 15_000, 30_000];
/** Progress ticks that find the element paused by someone else (the OS, a headset unplugged). */
const FOREIGN_PAUSE_TICKS = 2;
const BUFFERING_GRACE_MS = 400;

const MEDIA_ERR_NETWORK = 2;

const messages = {
  failed: 'This track could not be played.',
  connectionLost: 'The connection was lost. Press play to try again.',
};

/** Turns loud masters down to the target; quiet ones stay at full volume (html5 audio cannot boost). */
export function gainFor(loudnessLufs: number | null | undefined): number {
  if (loudnessLufs === null || loudnessLufs === undefined || !Number.isFinite(loudnessLufs)) return 1;
  return Math.min(1, Math.max(0.2, 10 ** ((TARGET_LUFS - loudnessLufs) / 20)));
}

type Loaded = {
  howl: Howl;
  /** Howler's id of the one sound this engine plays, once started. */
  id: number | null;
  track: PlayerTrack;
  /** Where the sound was asked to be, for the time before the element can tell. */
  target: number;
  node: HTMLAudioElement | undefined;
  detach: () => void;
};

export function startAudioEngine(): () => void {
  let loaded: Loaded | null = null;
  /** The shared seekVersion this sound follows; every report names it (see player-logic). */
  let appliedSeekVersion = -1;
  /** What this engine last asked the audio to do, so repeated state updates do not re-trigger it. */
  let soundOn = false;
  let announced = false;
  let retries = 0;
  let foreignPauseTicks = 0;
  let progressTimer: ReturnType<typeof setInterval> | undefined;
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const state = () => usePlayerStore.getState();
  const tab = () => state().tab;
  const report = (command: PlayerCommand) => sendToPlayer(command);

  const position = () => {
    if (!loaded) return state().position;
    if (loaded.howl.state() !== 'loaded') return loaded.target;
    const at = loaded.howl.seek(loaded.id ?? undefined);
    return typeof at === 'number' && Number.isFinite(at) ? at : loaded.target;
  };
  const duration = () => loaded?.howl.duration() || loaded?.track.durationSeconds || 0;

  // A wait shorter than this is not worth a spinner (or a screen reader announcing it).
  let bufferingTimer: ReturnType<typeof setTimeout> | undefined;
  const setBuffering = (buffering: boolean) => {
    clearTimeout(bufferingTimer);
    const version = appliedSeekVersion;
    const send = () => report({ type: 'buffering', tab: tab(), version, buffering });
    if (buffering) bufferingTimer = setTimeout(send, BUFFERING_GRACE_MS);
    else send();
  };

  const stopStallWatch = () => {
    clearTimeout(stallTimer);
    stallTimer = undefined;
  };
  const watchForStall = () => {
    stopStallWatch();
    stallTimer = setTimeout(retryLater, STALL_TIMEOUT_MS);
  };

  const release = () => {
    clearInterval(progressTimer);
    clearTimeout(retryTimer);
    stopStallWatch();
    progressTimer = retryTimer = undefined;
    if (loaded) {
      loaded.detach();
      // Handlers off first: unloading must not report anything about a sound nobody wants.
      loaded.howl.off();
      loaded.howl.unload();
    }
    loaded = null;
    soundOn = false;
    foreignPauseTicks = 0;
  };

  /** Reopens the stream where it was: a stalled or dropped connection resumes without a reload. */
  function reopen() {
    retryTimer = undefined;
    const view = state();
    const track = currentTrack(view);
    if (!track || !view.playsHere || !view.playing) {
      // Nobody is waiting for this sound now: drop it; the next play loads it afresh.
      release();
      setBuffering(false);
      return;
    }
    const at = position();
    release();
    load(track, at);
    sync(state());
  }

  function retryLater() {
    stopStallWatch();
    if (retryTimer) return;
    const delay = RETRY_DELAYS_MS[retries];
    if (delay === undefined) {
      release();
      report({ type: 'failed', tab: tab(), version: appliedSeekVersion, message: messages.connectionLost });
      return;
    }
    retries += 1;
    setBuffering(true);
    retryTimer = setTimeout(reopen, delay);
  }

  function tick(current: Loaded) {
    const at = position();
    report({ type: 'progress', tab: tab(), version: appliedSeekVersion, position: at });
    showPosition(duration(), at);
    // The element paused by something other than this engine (the OS took the audio focus, a
    // headset was unplugged): the shared state must say so too.
    foreignPauseTicks = soundOn && current.node?.paused && !current.node.ended ? foreignPauseTicks + 1 : 0;
    if (foreignPauseTicks >= FOREIGN_PAUSE_TICKS) {
      soundOn = false;
      clearInterval(progressTimer);
      report({ type: 'pause' });
    }
  }

  function load(track: PlayerTrack, at: number): Loaded {
    const howl = new Howl({
      src: [track.src],
      html5: true,
      format: ['mp3'],
      preload: true,
      volume: gainFor(track.loudnessLufs),
    });
    // Howler keeps the <audio> element private; its events are the only way to see buffering.
    const node = (howl as unknown as { _sounds: { _node?: HTMLAudioElement }[] })._sounds[0]?._node;
    const current: Loaded = { howl, id: null, track, target: at, node, detach: () => undefined };
    loaded = current;
    const isCurrent = () => loaded === current;

    const onWaiting = () => {
      if (!isCurrent() || !soundOn) return;
      setBuffering(true);
      watchForStall();
    };
    const onPlaying = () => {
      if (!isCurrent()) return;
      stopStallWatch();
      retries = 0;
      setBuffering(false);
    };
    node?.addEventListener('waiting', onWaiting);
    node?.addEventListener('playing', onPlaying);
    current.detach = () => {
      node?.removeEventListener('waiting', onWaiting);
      node?.removeEventListener('playing', onPlaying);
    };

    if (at > 0) howl.seek(at);
    howl.on('play', () => {
      if (!isCurrent()) return;
      // One sound at a time: a fundraiser page's preview stops when the player starts, and so
      // does a tab that answers to another coordinator (see soundChannel).
      for (const element of document.querySelectorAll('audio')) element.pause();
      soundChannel?.postMessage({ tab: tab() });
      announced = true;
      announceTrack(track, playerControls);
      showPlaybackState(true);
      clearInterval(progressTimer);
      progressTimer = setInterval(() => tick(current), PROGRESS_INTERVAL_MS);
    });
    howl.on('pause', () => {
      if (!isCurrent()) return;
      clearInterval(progressTimer);
      report({ type: 'progress', tab: tab(), version: appliedSeekVersion, position: position() });
    });
    howl.on('end', () => {
      if (!isCurrent()) return;
      clearInterval(progressTimer);
      soundOn = false;
      report({ type: 'ended', tab: tab(), version: appliedSeekVersion });
    });
    howl.on('loaderror', (_id, code) => {
      if (!isCurrent()) return;
      // A dropped connection is worth another try; a missing or unreadable file is not.
      if (code === MEDIA_ERR_NETWORK || !navigator.onLine) return retryLater();
      release();
      report({ type: 'failed', tab: tab(), version: appliedSeekVersion, message: messages.failed });
    });
    howl.on('playerror', () => {
      if (!isCurrent()) return;
      // The browser refused to start sound (no user gesture in this tab yet): show it as paused.
      soundOn = false;
      report({ type: 'pause' });
    });
    return current;
  }

  function sync(view: PlayerView) {
    const track = currentTrack(view);
    if (!track || !view.playsHere) {
      release();
      if (announced) leaveMediaSession();
      announced = false;
      return;
    }
    // A failed track waits for the listener (play retries it, next moves on): no reload loop.
    if (view.error) {
      release();
      showPlaybackState(false);
      return;
    }
    let current = loaded;
    if (!current || current.track.src !== track.src) {
      release();
      retries = 0;
      appliedSeekVersion = view.seekVersion;
      current = load(track, view.position);
      // The lock screen follows the track even when it is loaded paused (the album wrapped).
      if (announced) announceTrack(track, playerControls);
    }
    // Pause before any seek: Howler restarts a playing html5 sound after seeking it.
    if (!view.playing && soundOn) {
      soundOn = false;
      stopStallWatch();
      current.howl.pause(current.id ?? undefined);
      showPlaybackState(false);
    }
    if (appliedSeekVersion !== view.seekVersion) {
      appliedSeekVersion = view.seekVersion;
      current.target = view.position;
      current.howl.seek(view.position, current.id ?? undefined);
      showPosition(duration(), view.position);
    }
    if (view.playing && !soundOn && !retryTimer) {
      soundOn = true;
      // Until the first bytes arrive, the wait is buffering too, and it may stall like any other.
      if (current.howl.state() !== 'loaded') {
        setBuffering(true);
        watchForStall();
      }
      current.id = current.id === null ? current.howl.play() : current.howl.play(current.id);
    }
  }

  // Tabs of two builds of the site (one opened before a deploy) talk to two different shared
  // workers, so neither coordinator knows of the other's sound. Every tab that starts playing
  // says so here; a tab still playing after that hears it from a tab its coordinator did not
  // hand the sound to, and pauses. (Within one coordinator the state has already moved on.)
  const soundChannel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('soundcause-sound');
  if (soundChannel) {
    soundChannel.onmessage = (event: MessageEvent<{ tab?: string }>) => {
      if (soundOn && event.data.tab !== tab()) playerControls.pause();
    };
  }

  const onOnline = () => {
    if (retryTimer) {
      clearTimeout(retryTimer);
      reopen();
    }
  };
  window.addEventListener('online', onOnline);
  const unsubscribe = usePlayerStore.subscribe(sync);
  setLivePosition(() => position());
  sync(state());
  return () => {
    unsubscribe();
    setLivePosition(null);
    window.removeEventListener('online', onOnline);
    soundChannel?.close();
    release();
  };
}
