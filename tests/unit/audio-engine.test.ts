import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BUFFERING_GRACE_MS,
  createAudioEngine,
  type EngineView,
  engineMessages,
  FOREIGN_PAUSE_TICKS,
  gainFor,
  PROGRESS_INTERVAL_MS,
  RETRY_DELAYS_MS,
  STALL_TIMEOUT_MS,
} from '../../client/player/audio-engine';
import { createMediaSession, type MediaSessionApi } from '../../client/player/media-session';
import { emptyPlayer, type PlayerCommand, playerReducer, type PlayerState } from '../../client/player/player-logic';
import type { Sound, SoundEvents, SoundSource } from '../../client/player/sound';
import type { PlayerTrack } from '../../shared/answers/library';

// The playing tab's audio engine, in node. The player's real rules (playerReducer) stand in for the
// shared worker, a fake sound for Howler's <audio> element, and a fake navigator.mediaSession for
// the lock screen; fake timers drive progress ticks, stalls and retries.

const TAB = 'this-tab';
const OTHER_TAB = 'other-tab';

const track = (index: number, extra: Partial<PlayerTrack> = {}): PlayerTrack => ({
  src: `/api/tracks/${index + 1}/stream?v=r`,
  name: `Track ${index + 1}`,
  index,
  artistName: 'The Testers',
  projectName: 'Album',
  projectSlug: 'album',
  durationSeconds: 180,
  ...extra,
});
const album = [track(0), track(1)];

type Handlers = { [Name in keyof SoundEvents]: SoundEvents[Name][] };

/** What the engine sees of an <audio> element, and what the test makes it do. */
class FakeSound implements Sound {
  loadState: 'loading' | 'loaded' = 'loading';
  position = 0;
  paused = true;
  ended = false;
  unloaded = false;
  /** How often the sound started, or resumed. */
  starts = 0;
  private wantsToPlay = false;
  private handlers: Handlers = { play: [], pause: [], end: [], loaderror: [], playerror: [], waiting: [], playing: [] };

  constructor(
    readonly source: SoundSource,
    private readonly refusesToPlay: boolean,
  ) {}

  play() {
    // Browsers refuse a sound without a user gesture (autoplay policy).
    if (this.refusesToPlay) return this.emit('playerror');
    this.wantsToPlay = true;
    if (this.loadState === 'loaded') this.start();
  }
  pause() {
    this.wantsToPlay = false;
    if (this.paused) return;
    this.paused = true;
    this.emit('pause');
  }
  seek(): number;
  seek(seconds: number): void;
  seek(seconds?: number): number | void {
    if (seconds === undefined) return this.loadState === 'loaded' ? this.position : NaN;
    this.position = seconds;
  }
  state() {
    return this.unloaded ? 'unloaded' : this.loadState;
  }
  duration() {
    return this.loadState === 'loaded' ? 180 : 0;
  }
  unload() {
    this.unloaded = true;
    this.paused = true;
  }
  on<Name extends keyof SoundEvents>(event: Name, handler: SoundEvents[Name]) {
    this.handlers[event].push(handler);
  }
  off() {
    for (const handlers of Object.values(this.handlers)) handlers.length = 0;
  }

  finishLoading() {
    this.loadState = 'loaded';
    if (this.wantsToPlay) this.start();
  }
  /** The element runs out of data. */
  stall() {
    this.emit('waiting');
  }
  /** Data arrives again. */
  resume() {
    this.emit('playing');
  }
  reachEnd() {
    this.paused = true;
    this.ended = true;
    this.emit('end');
  }
  failToLoad(cause: 'network' | 'media') {
    for (const handler of this.handlers.loaderror) handler(cause);
  }
  /** The OS takes the audio focus: the element pauses, and Howler says nothing. */
  pauseFromOutside() {
    this.paused = true;
  }
  get playing() {
    return !this.paused && !this.unloaded;
  }

  private start() {
    this.starts += 1;
    this.paused = false;
    this.emit('playing');
    this.emit('play');
  }
  private emit(event: Exclude<keyof SoundEvents, 'loaderror'>) {
    for (const handler of [...this.handlers[event]]) handler();
  }
}

class FakeMediaSession implements MediaSessionApi {
  metadata: MediaMetadata | null = null;
  playbackState: MediaSessionPlaybackState = 'none';
  positionState: MediaPositionState | undefined;
  readonly handlers = new Map<MediaSessionAction, MediaSessionActionHandler | null>();
  /** How often the handlers were bound; iOS drops them, so every play binds them again. */
  bindings = 0;

  setActionHandler(action: MediaSessionAction, handler: MediaSessionActionHandler | null) {
    if (action === 'play') this.bindings += 1;
    this.handlers.set(action, handler);
  }
  setPositionState(state?: MediaPositionState) {
    this.positionState = state;
  }
  /** The listener presses a button on the lock screen or a headset. */
  press(action: MediaSessionAction, details: Omit<MediaSessionActionDetails, 'action'> = {}) {
    this.handlers.get(action)?.({ action, ...details });
  }
}

let stopEngine: (() => void) | undefined;

/**
 * The engine with everything around it: `send` is a command from any tab (or this tab's buttons);
 * the engine's own reports reach the shared state when the worker answers (`flush`, or as time
 * passes in `advance`).
 */
function startEngine() {
  let shared: PlayerState = emptyPlayer;
  const view = (): EngineView => ({ ...shared, tab: TAB, playsHere: shared.playingTab === TAB });
  let current = view();
  const listeners = new Set<(view: EngineView) => void>();
  const inbox: PlayerCommand[] = [];
  /** Each report with what the lock screen said when it was sent. */
  const reports: { command: PlayerCommand; playbackState: MediaSessionPlaybackState }[] = [];
  const sounds: FakeSound[] = [];
  const session = new FakeMediaSession();
  const announcedOnChannel: (string | undefined)[] = [];
  let hearOtherTab: ((tab: string | undefined) => void) | undefined;
  let onOnline: (() => void) | undefined;
  let livePosition: (() => number) | null = null;
  const options = { soundsLoadAtOnce: true, soundsRefuseToPlay: false, online: true, otherAudioPaused: 0 };

  const apply = (command: PlayerCommand) => {
    const next = playerReducer(shared, command);
    if (next === shared) return;
    shared = next;
    current = view();
    for (const listener of [...listeners]) listener(current);
  };
  const flush = () => {
    for (let command = inbox.shift(); command; command = inbox.shift()) apply(command);
  };
  const toWorker = (command: PlayerCommand) => inbox.push(command);

  const engine = createAudioEngine({
    getState: () => current,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    report: (command) => {
      reports.push({ command, playbackState: session.playbackState });
      toWorker(command);
    },
    controls: {
      play: () => toWorker({ type: 'play', tab: TAB }),
      pause: () => toWorker({ type: 'pause', tab: TAB, position: livePosition?.() }),
      previous: () => toWorker({ type: 'previous', tab: TAB, position: livePosition?.() }),
      next: () => toWorker({ type: 'next', tab: TAB }),
      seek: (position) => toWorker({ type: 'seek', position }),
    },
    createSound: (source) => {
      const sound = new FakeSound(source, options.soundsRefuseToPlay);
      if (options.soundsLoadAtOnce) sound.finishLoading();
      sounds.push(sound);
      return sound;
    },
    mediaSession: createMediaSession({
      session,
      createMetadata: (init) => ({
        title: init.title ?? '',
        artist: init.artist ?? '',
        album: init.album ?? '',
        artwork: init.artwork ?? [],
      }),
      baseUrl: () => 'https://soundcause.test/music',
    }),
    setLivePosition: (source) => {
      livePosition = source;
    },
    pauseOtherAudio: () => {
      options.otherAudioPaused += 1;
    },
    soundChannel: {
      announce: (tab) => announcedOnChannel.push(tab),
      listen: (handler) => {
        hearOtherTab = handler;
      },
      close: () => {
        hearOtherTab = undefined;
      },
    },
    network: {
      isOnline: () => options.online,
      onOnline: (handler) => {
        onOnline = handler;
        return () => {
          onOnline = undefined;
        };
      },
    },
  });
  stopEngine = engine.stop;

  return {
    session,
    sounds,
    reports,
    options,
    announcedOnChannel,
    /** The sound made last. */
    get sound(): FakeSound {
      const sound = sounds.at(-1);
      if (!sound) throw new Error('No sound was made');
      return sound;
    },
    state: () => shared,
    livePosition: () => livePosition?.(),
    send(command: PlayerCommand) {
      toWorker(command);
      flush();
    },
    flush,
    /** Time passes; the worker answers within a tenth of a second. */
    advance(ms: number) {
      for (let passed = 0; passed < ms; passed += 100) {
        vi.advanceTimersByTime(Math.min(100, ms - passed));
        flush();
      }
    },
    /** What the lock screen said when the engine sent its first report of this kind. */
    playbackStateWhenReported(type: PlayerCommand['type']) {
      return reports.find((report) => report.command.type === type)?.playbackState;
    },
    hearOtherTab: (tab: string | undefined) => hearOtherTab?.(tab),
    goOnline() {
      options.online = true;
      onOnline?.();
    },
  };
}

type Engine = ReturnType<typeof startEngine>;

/** This tab plays `tracks` from `index`, and the sound has started. */
function playing(tracks = album, index = 0): Engine {
  const engine = startEngine();
  engine.send({ type: 'load', tracks, index, tab: TAB });
  expect(engine.sound.playing).toBe(true);
  expect(engine.session.playbackState).toBe('playing');
  return engine;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  stopEngine?.();
  stopEngine = undefined;
  vi.useRealTimers();
});

describe('audio engine: the lock screen tells the truth', () => {
  it('says playing once the sound starts, names the track and binds the buttons', () => {
    const engine = startEngine();
    expect(engine.session.playbackState).toBe('none');
    engine.options.soundsLoadAtOnce = false;
    engine.send({ type: 'load', tracks: album, index: 0, tab: TAB });
    // Asked to play, but nothing sounds yet.
    expect(engine.session.playbackState).toBe('none');

    engine.sound.finishLoading();
    expect(engine.session.playbackState).toBe('playing');
    expect(engine.session.metadata).toMatchObject({ title: 'Track 1', artist: 'The Testers', album: 'Album' });
    engine.session.press('nexttrack');
    engine.flush();
    expect(engine.state().index).toBe(1);
  });

  it('pause: paused', () => {
    const engine = playing();
    engine.session.press('pause');
    engine.flush();
    expect(engine.sound.playing).toBe(false);
    expect(engine.session.playbackState).toBe('paused');
  });

  it('play after a pause says playing again and binds the buttons again (iOS drops them)', () => {
    const engine = playing();
    engine.send({ type: 'pause', tab: TAB });
    const bindings = engine.session.bindings;
    engine.send({ type: 'play', tab: TAB });
    expect(engine.sound.playing).toBe(true);
    expect(engine.session.playbackState).toBe('playing');
    expect(engine.session.bindings).toBe(bindings + 1);
  });

  it('Next on the last track wraps to the first and stops: paused, showing the first track', () => {
    const engine = playing(album, 1);
    engine.session.press('nexttrack');
    engine.flush();
    expect(engine.state()).toMatchObject({ index: 0, playing: false });
    expect(engine.sound.source.src).toBe(album[0]?.src);
    expect(engine.sound.playing).toBe(false);
    expect(engine.session.playbackState).toBe('paused');
    expect(engine.session.metadata?.title).toBe('Track 1');
  });

  it('the last track ending wraps to the first and stops: paused', () => {
    const engine = playing(album, 1);
    const last = engine.sound;
    // A progress report is on its way when the track ends: its echo must not start the track again.
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    last.reachEnd();
    engine.flush();
    expect(last.starts).toBe(1);
    expect(engine.state()).toMatchObject({ index: 0, playing: false });
    expect(engine.sounds.some((sound) => sound.playing)).toBe(false);
    expect(engine.session.playbackState).toBe('paused');
    expect(engine.session.metadata?.title).toBe('Track 1');
  });

  it('a track ending says paused while the next one loads, and playing once it sounds', () => {
    const engine = playing(album, 0);
    engine.options.soundsLoadAtOnce = false;
    engine.sound.reachEnd();
    expect(engine.session.playbackState).toBe('paused');

    engine.flush();
    expect(engine.state()).toMatchObject({ index: 1, playing: true });
    expect(engine.sound.source.src).toBe(album[1]?.src);
    engine.advance(BUFFERING_GRACE_MS);
    expect(engine.state().buffering).toBe(true);
    expect(engine.session.playbackState).toBe('paused');

    engine.sound.finishLoading();
    engine.flush();
    expect(engine.state().buffering).toBe(false);
    expect(engine.session.playbackState).toBe('playing');
    expect(engine.session.metadata?.title).toBe('Track 2');
  });

  it('a track that cannot be played: paused at once, and the listener told why', () => {
    const engine = playing(album, 0);
    engine.session.press('nexttrack');
    engine.flush();
    engine.sound.failToLoad('media');
    expect(engine.playbackStateWhenReported('failed')).toBe('paused');
    engine.flush();
    expect(engine.state()).toMatchObject({ index: 1, playing: false, error: engineMessages.failed });
    expect(engine.sound.unloaded).toBe(true);
    expect(engine.session.playbackState).toBe('paused');
  });

  it('a failed track in the shared state: paused, and nothing reloads until play retries it', () => {
    const engine = playing();
    engine.send({ type: 'failed', tab: TAB, version: engine.state().seekVersion, message: engineMessages.failed });
    expect(engine.sound.unloaded).toBe(true);
    expect(engine.session.playbackState).toBe('paused');
    engine.advance(60_000);
    expect(engine.sounds).toHaveLength(1);

    engine.send({ type: 'play', tab: TAB });
    expect(engine.sounds).toHaveLength(2);
    expect(engine.sound.playing).toBe(true);
    expect(engine.session.playbackState).toBe('playing');
  });

  it('a stall that outlasts every retry: paused, connection lost', () => {
    const engine = playing();
    engine.sound.position = 30;
    engine.options.soundsLoadAtOnce = false;
    engine.sound.stall();
    const retrying = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay + STALL_TIMEOUT_MS, 0);
    engine.advance(STALL_TIMEOUT_MS + retrying - 100);
    // Still trying, still wanted: the lock screen keeps offering Pause.
    expect(engine.state()).toMatchObject({ playing: true, buffering: true, error: null });
    expect(engine.session.playbackState).toBe('playing');

    engine.advance(100);
    expect(engine.sounds).toHaveLength(1 + RETRY_DELAYS_MS.length);
    expect(engine.sounds.every((sound) => sound.unloaded)).toBe(true);
    expect(engine.playbackStateWhenReported('failed')).toBe('paused');
    expect(engine.state()).toMatchObject({ playing: false, error: engineMessages.connectionLost });
    expect(engine.session.playbackState).toBe('paused');
  });

  it('the browser refusing to start the next track: paused', () => {
    const engine = playing(album, 0);
    engine.options.soundsRefuseToPlay = true;
    engine.session.press('nexttrack');
    engine.flush();
    expect(engine.state()).toMatchObject({ index: 1, playing: false, error: null });
    expect(engine.sound.playing).toBe(false);
    expect(engine.session.playbackState).toBe('paused');
  });

  it('a pause from outside (the OS took the audio focus): paused, and the shared state follows', () => {
    const engine = playing();
    engine.sound.pauseFromOutside();
    engine.advance(PROGRESS_INTERVAL_MS * (FOREIGN_PAUSE_TICKS - 1));
    expect(engine.state().playing).toBe(true);

    engine.advance(PROGRESS_INTERVAL_MS);
    expect(engine.state().playing).toBe(false);
    expect(engine.session.playbackState).toBe('paused');
    // The progress report sent with the pause still said playing: the sound is not started again.
    expect(engine.sound.starts).toBe(1);
    expect(engine.sound.playing).toBe(false);
  });

  it('the sound moving to another tab leaves the media session: none', () => {
    const engine = playing();
    engine.send({ type: 'play', tab: OTHER_TAB });
    expect(engine.sound.unloaded).toBe(true);
    expect(engine.session.playbackState).toBe('none');
    expect(engine.session.metadata).toBeNull();
  });

  it('clearing the player (logged out) leaves the media session: none', () => {
    const engine = playing();
    engine.send({ type: 'clear' });
    expect(engine.sound.unloaded).toBe(true);
    expect(engine.session.playbackState).toBe('none');
    expect(engine.session.metadata).toBeNull();
  });
});

describe('audio engine: the sound', () => {
  it('turns loud masters down and leaves quiet ones at full volume', () => {
    const engine = playing([track(0, { loudnessLufs: -10 }), track(1, { loudnessLufs: -20 })]);
    expect(engine.sound.source.volume).toBeCloseTo(0.501, 3);
    engine.send({ type: 'next', tab: TAB });
    expect(engine.sound.source.volume).toBe(1);
    expect(gainFor(null)).toBe(1);
    expect(gainFor(10)).toBe(0.2);
  });

  it('reports progress every second under the current seek version, and follows seeks', () => {
    const engine = playing();
    engine.sound.position = 12;
    engine.advance(PROGRESS_INTERVAL_MS);
    expect(engine.state().position).toBe(12);
    expect(engine.session.positionState).toMatchObject({ duration: 180, position: 12 });

    engine.send({ type: 'seek', position: 90 });
    expect(engine.sound.position).toBe(90);
    expect(engine.livePosition()).toBe(90);
    const progress = engine.reports.filter((report) => report.command.type === 'progress');
    engine.advance(PROGRESS_INTERVAL_MS);
    const latest = engine.reports.filter((report) => report.command.type === 'progress').slice(progress.length);
    expect(latest.map((report) => report.command)).toEqual([
      { type: 'progress', tab: TAB, version: engine.state().seekVersion, position: 90 },
    ]);
  });

  it('a short wait for data shows no spinner; a longer one does', () => {
    const engine = playing();
    engine.sound.stall();
    engine.advance(BUFFERING_GRACE_MS - 100);
    engine.sound.resume();
    engine.advance(BUFFERING_GRACE_MS);
    expect(engine.reports.some(({ command }) => command.type === 'buffering' && command.buffering)).toBe(false);

    engine.sound.stall();
    engine.advance(BUFFERING_GRACE_MS);
    expect(engine.state().buffering).toBe(true);
    engine.sound.resume();
    engine.flush();
    expect(engine.state().buffering).toBe(false);
  });

  it('a stalled stream is reopened where it was, after growing delays', () => {
    const engine = playing();
    engine.sound.position = 42;
    engine.options.soundsLoadAtOnce = false;
    engine.sound.stall();
    engine.advance(STALL_TIMEOUT_MS + (RETRY_DELAYS_MS[0] ?? 0) - 100);
    expect(engine.sounds).toHaveLength(1);
    engine.advance(100);
    expect(engine.sounds).toHaveLength(2);
    expect(engine.sound.position).toBe(42);

    // The second try waits longer.
    engine.advance(STALL_TIMEOUT_MS + (RETRY_DELAYS_MS[1] ?? 0));
    expect(engine.sounds).toHaveLength(3);
    engine.sound.finishLoading();
    engine.flush();
    expect(engine.sound.playing).toBe(true);
    expect(engine.state()).toMatchObject({ playing: true, buffering: false, error: null });
  });

  it('coming back online retries at once instead of waiting out the delay', () => {
    const engine = playing();
    engine.options.online = false;
    engine.sound.failToLoad('network');
    engine.flush();
    expect(engine.state().error).toBeNull();
    expect(engine.sounds).toHaveLength(1);

    engine.goOnline();
    expect(engine.sounds).toHaveLength(2);
    expect(engine.sound.playing).toBe(true);
  });

  it('stops other sounds of the page, and pauses when a tab of another build starts playing', () => {
    const engine = playing();
    expect(engine.options.otherAudioPaused).toBe(1);
    expect(engine.announcedOnChannel).toEqual([TAB]);

    engine.hearOtherTab(TAB);
    engine.flush();
    expect(engine.sound.playing).toBe(true);

    engine.hearOtherTab('a-tab-of-another-build');
    engine.flush();
    expect(engine.state().playing).toBe(false);
    expect(engine.sound.playing).toBe(false);
    expect(engine.session.playbackState).toBe('paused');
  });
});
