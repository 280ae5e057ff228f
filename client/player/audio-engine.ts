import type { PlayerTrack } from '../../shared/answers/library';
import type { MediaSessionControls, PlayerMediaSession } from './media-session';
import { currentTrack, type PlayerCommand, playerReducer, type PlayerState, type TabId } from './player-logic';
import type { CreateSound, Sound } from './sound';

// The sound, in the one tab that plays (DESIGN.md section 3): a thin shell that follows the
// mirrored state and reports back what the audio did. Everything outside it (the store, the
// sound, the lock screen, the browser's events) is handed in by start-player.ts, so it is unit
// tested in node with a fake sound and fake timers (STYLE.md rule 8).
//
// One exception to following: when a track ends, this tab moves on by itself, in the `ended`
// event's own task. iOS Safari starts no sound outside a user gesture's task or that one (and on a
// locked phone the page may get no other chance to run), so the next track cannot wait for the
// shared worker's answer, which arrives in a later task. The engine works out that answer with the
// worker's own rules (playerReducer), plays it at once and tells the worker, whose state then only
// confirms it; the other tabs mirror it as before.

/** Tracks are turned down to about this loudness (EBU R128), so albums sit at similar levels. */
const TARGET_LUFS = -16;
export const PROGRESS_INTERVAL_MS = 1_000;
/** Waiting this long for data counts as a stalled connection: the stream is reopened where it was. */
export const STALL_TIMEOUT_MS = 8_000;
export const RETRY_DELAYS_MS = [1_000, 3_000, 8_000, 15_000, 30_000];
/** Progress ticks that find the element paused by someone else (the OS, a headset unplugged). */
export const FOREIGN_PAUSE_TICKS = 2;
export const BUFFERING_GRACE_MS = 400;

export const engineMessages = {
  failed: 'This track could not be played.',
  connectionLost: 'The connection was lost. Press play to try again.',
};

/** Turns loud masters down to the target; quiet ones stay at full volume (html5 audio cannot boost). */
export function gainFor(loudnessLufs: number | null | undefined): number {
  if (loudnessLufs === null || loudnessLufs === undefined || !Number.isFinite(loudnessLufs)) return 1;
  return Math.min(1, Math.max(0.2, 10 ** ((TARGET_LUFS - loudnessLufs) / 20)));
}

/** The shared state as this tab sees it: the part of the store's view the engine follows. */
export type EngineView = PlayerState & {
  tab: TabId;
  /** The sound comes from this tab. */
  playsHere: boolean;
};

/**
 * Tabs of two builds of the site (one opened before a deploy) talk to two different shared
 * workers, so neither coordinator knows of the other's sound. Every tab that starts playing says
 * so here; a tab still playing after that hears it from a tab its coordinator did not hand the
 * sound to, and pauses. (Within one coordinator the state has already moved on.)
 */
export type SoundChannel = {
  announce: (tab: TabId) => void;
  listen: (handler: (tab: TabId | undefined) => void) => void;
  close: () => void;
};

export type AudioEngineDeps = {
  getState: () => EngineView;
  subscribe: (listener: (view: EngineView) => void) => () => void;
  /** Tells the shared player what the audio did. */
  report: (command: PlayerCommand) => void;
  /** What the lock screen's buttons, and a tab of another build, ask for. */
  controls: MediaSessionControls;
  createSound: CreateSound;
  mediaSession: PlayerMediaSession;
  /** Gives the store the sound's position right now (the shared state lags up to a second). */
  setLivePosition: (source: (() => number) | null) => void;
  /** Stops the page's other sounds, such as a fundraiser page's preview: one sound at a time. */
  pauseOtherAudio: () => void;
  soundChannel: SoundChannel | null;
  network: {
    isOnline: () => boolean;
    /** Returns a function that stops listening. */
    onOnline: (handler: () => void) => () => void;
  };
};

type Loaded = {
  sound: Sound;
  track: PlayerTrack;
  /** Where the sound was asked to be, for the time before the element can tell. */
  target: number;
};

export function createAudioEngine(deps: AudioEngineDeps): { stop: () => void } {
  const { report, controls, mediaSession } = deps;
  let loaded: Loaded | null = null;
  /**
   * Where this tab went by itself when a track ended, before the shared state says so. `from` is
   * the seekVersion the ended report names: a state still at that version in which this tab plays
   * was sent before the worker heard of the end, and is older than what already sounds.
   */
  let ahead: { view: EngineView; from: number } | null = null;
  /** The shared seekVersion this sound follows; every report names it (see player-logic). */
  let appliedSeekVersion = -1;
  /** What this engine last asked the audio to do, so repeated state updates do not re-trigger it. */
  let soundOn = false;
  /**
   * The sound stopped without this engine asking (it ended, the OS paused it, the browser refused
   * to start it). States sent before the shared player heard of that still say playing: they must
   * not start it again.
   */
  let stoppedItself = false;
  /** This tab holds the lock screen (it has played since it last left the media session). */
  let announced = false;
  let retries = 0;
  let foreignPauseTicks = 0;
  let progressTimer: ReturnType<typeof setInterval> | undefined;
  let stallTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  /** The state this engine follows: the shared one, or its own step ahead of it. */
  const state = () => ahead?.view ?? deps.getState();
  const tab = () => state().tab;

  const position = () => {
    if (!loaded) return state().position;
    if (loaded.sound.state() !== 'loaded') return loaded.target;
    const at = loaded.sound.seek();
    return Number.isFinite(at) ? at : loaded.target;
  };
  const duration = () => loaded?.sound.duration() || loaded?.track.durationSeconds || 0;

  /**
   * Every way the sound stops, other than leaving, ends here: the lock screen and media keys must
   * offer Play over silence, not Pause. Said at once, before the shared state answers.
   */
  const showStopped = () => {
    if (announced) mediaSession.showPlaybackState(false);
  };

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
      // Handlers off first: unloading must not report anything about a sound nobody wants.
      loaded.sound.off();
      loaded.sound.unload();
    }
    loaded = null;
    soundOn = false;
    stoppedItself = false;
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
      showStopped();
      report({ type: 'failed', tab: tab(), version: appliedSeekVersion, message: engineMessages.connectionLost });
      return;
    }
    retries += 1;
    setBuffering(true);
    retryTimer = setTimeout(reopen, delay);
  }

  function tick(current: Loaded) {
    const at = position();
    report({ type: 'progress', tab: tab(), version: appliedSeekVersion, position: at });
    mediaSession.showPosition(duration(), at);
    // The element paused by something other than this engine (the OS took the audio focus, a
    // headset was unplugged): the shared state must say so too.
    foreignPauseTicks = soundOn && current.sound.paused && !current.sound.ended ? foreignPauseTicks + 1 : 0;
    if (foreignPauseTicks >= FOREIGN_PAUSE_TICKS) {
      soundOn = false;
      stoppedItself = true;
      clearInterval(progressTimer);
      showStopped();
      report({ type: 'pause' });
    }
  }

  function load(track: PlayerTrack, at: number): Loaded {
    const sound = deps.createSound({ src: track.src, volume: gainFor(track.loudnessLufs) });
    const current: Loaded = { sound, track, target: at };
    loaded = current;
    const isCurrent = () => loaded === current;

    sound.on('waiting', () => {
      if (!isCurrent() || !soundOn) return;
      setBuffering(true);
      watchForStall();
    });
    sound.on('playing', () => {
      if (!isCurrent()) return;
      stopStallWatch();
      retries = 0;
      setBuffering(false);
    });

    if (at > 0) sound.seek(at);
    sound.on('play', () => {
      if (!isCurrent()) return;
      // One sound at a time: a fundraiser page's preview stops when the player starts, and so
      // does a tab that answers to another coordinator (see SoundChannel).
      deps.pauseOtherAudio();
      deps.soundChannel?.announce(tab());
      announced = true;
      mediaSession.announceTrack(track, controls);
      mediaSession.showPlaybackState(true);
      clearInterval(progressTimer);
      progressTimer = setInterval(() => tick(current), PROGRESS_INTERVAL_MS);
    });
    sound.on('pause', () => {
      if (!isCurrent()) return;
      clearInterval(progressTimer);
      report({ type: 'progress', tab: tab(), version: appliedSeekVersion, position: position() });
    });
    sound.on('end', () => {
      if (!isCurrent()) return;
      clearInterval(progressTimer);
      soundOn = false;
      stoppedItself = true;
      // Silent until the next track starts, or for good when the album wrapped and stopped.
      showStopped();
      moveOnFromEnd();
    });
    sound.on('loaderror', (cause) => {
      if (!isCurrent()) return;
      // A dropped connection is worth another try; a missing or unreadable file is not.
      if (cause === 'network' || !deps.network.isOnline()) return retryLater();
      release();
      showStopped();
      report({ type: 'failed', tab: tab(), version: appliedSeekVersion, message: engineMessages.failed });
    });
    sound.on('playerror', () => {
      if (!isCurrent()) return;
      // The browser refused to start sound (no user gesture in this tab yet): show it as paused.
      soundOn = false;
      stoppedItself = true;
      showStopped();
      report({ type: 'pause' });
    });
    return current;
  }

  /**
   * Still inside the `ended` event's task: the shared worker's answer to the end (the next track,
   * or the first one, stopped, after the last), worked out here by the same reducer and followed
   * now, with no wait in between (see the top of this file).
   */
  function moveOnFromEnd() {
    const now = state();
    const version = appliedSeekVersion;
    const ended: PlayerCommand = { type: 'ended', tab: now.tab, version };
    const next = playerReducer(now, ended);
    if (next !== now) {
      ahead = { view: { ...next, tab: now.tab, playsHere: next.playingTab === now.tab }, from: version };
    }
    // Reported first, so that what the next sound reports (a refusal to play, buffering) reaches
    // the worker after the end it follows. A coordinator in this tab answers before report()
    // returns, and then this tab already follows its answer.
    report(ended);
    if (ahead) sync(ahead.view);
  }

  /** A state from the shared worker. */
  function follow(view: EngineView) {
    if (ahead && view.playsHere && view.seekVersion === ahead.from) return;
    ahead = null;
    sync(view);
  }

  function sync(view: EngineView) {
    const track = currentTrack(view);
    if (!track || !view.playsHere) {
      release();
      if (announced) mediaSession.leave();
      announced = false;
      return;
    }
    // A failed track waits for the listener (play retries it, next moves on): no reload loop.
    if (view.error) {
      release();
      showStopped();
      return;
    }
    let current = loaded;
    if (!current || current.track.src !== track.src) {
      release();
      retries = 0;
      appliedSeekVersion = view.seekVersion;
      current = load(track, view.position);
      // The lock screen follows the track even when it is loaded paused (the album wrapped).
      if (announced) mediaSession.announceTrack(track, controls);
    }
    if (!view.playing) {
      stoppedItself = false;
      // Pause before any seek: Howler restarts a playing html5 sound after seeking it.
      if (soundOn) {
        soundOn = false;
        stopStallWatch();
        current.sound.pause();
      }
      // Also when the sound already stopped by itself, or went with the track it belonged to
      // (Next on the last track wraps to the first and stops).
      showStopped();
    }
    if (appliedSeekVersion !== view.seekVersion) {
      // Moved elsewhere (a seek, a restart, play in this tab after another): wanted again.
      stoppedItself = false;
      appliedSeekVersion = view.seekVersion;
      current.target = view.position;
      current.sound.seek(view.position);
      mediaSession.showPosition(duration(), view.position);
    }
    if (view.playing && !soundOn && !stoppedItself && !retryTimer) {
      soundOn = true;
      // Until the first bytes arrive, the wait is buffering too, and it may stall like any other.
      if (current.sound.state() !== 'loaded') {
        setBuffering(true);
        watchForStall();
      }
      current.sound.play();
    }
  }

  deps.soundChannel?.listen((otherTab) => {
    if (soundOn && otherTab !== tab()) controls.pause();
  });

  const stopListeningOnline = deps.network.onOnline(() => {
    if (retryTimer) {
      clearTimeout(retryTimer);
      reopen();
    }
  });
  const unsubscribe = deps.subscribe(follow);
  deps.setLivePosition(() => position());
  sync(state());
  return {
    stop: () => {
      unsubscribe();
      deps.setLivePosition(null);
      stopListeningOnline();
      deps.soundChannel?.close();
      release();
    },
  };
}
