import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAudioEngine, type EngineView, PROGRESS_INTERVAL_MS } from '../../client/player/audio-engine';
import {
  type CoordinatorMessage,
  createPlayerCoordinator,
  type PlayerPort,
  type TabMessage,
} from '../../client/player/coordinator';
import { createMediaSession } from '../../client/player/media-session';
import { emptyPlayer, type PlayerCommand, type PlayerState } from '../../client/player/player-logic';
import type { Sound, SoundEvents, SoundSource } from '../../client/player/sound';
import type { PlayerTrack } from '../../shared/answers/library';

// A track ending starts the next one in the `ended` event's own task (issue 27, "Player on
// phones"): iOS Safari starts no sound later than that without a gesture, and a locked phone runs
// nothing else. Two tabs, each with its audio engine, talk to the real coordinator over ports
// that deliver nothing until the test says so, as a SharedWorker's messages arrive in later tasks.

const album: PlayerTrack[] = [0, 1, 2].map((index) => ({
  src: `/api/tracks/${index + 1}/stream?v=r`,
  name: `Track ${index + 1}`,
  index,
  artistName: 'The Testers',
  projectName: 'Album',
  projectSlug: 'album',
  durationSeconds: 180,
}));

/** What the engine sees of an <audio> element: loaded at once, and ending when told to. */
class FakeSound implements Sound {
  paused = true;
  ended = false;
  unloaded = false;
  /** Calls to play(), in order with everything else the test watches. */
  plays = 0;
  private handlers = new Map<keyof SoundEvents, (() => void)[]>();

  constructor(readonly source: SoundSource) {}

  play() {
    this.plays += 1;
    this.paused = false;
    this.ended = false;
    this.emit('playing');
    this.emit('play');
  }
  pause() {
    if (this.paused) return;
    this.paused = true;
    this.emit('pause');
  }
  seek(): number;
  seek(seconds: number): void;
  seek(seconds?: number): number | void {
    if (seconds === undefined) return 0;
  }
  state() {
    return this.unloaded ? 'unloaded' : 'loaded';
  }
  duration() {
    return 180;
  }
  unload() {
    this.unloaded = true;
    this.paused = true;
  }
  on<Name extends keyof SoundEvents>(event: Name, handler: SoundEvents[Name]) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler as () => void]);
  }
  off() {
    this.handlers.clear();
  }
  /** The element fires `ended`: the handlers run, and the test looks before anything else does. */
  reachEnd() {
    this.paused = true;
    this.ended = true;
    this.emit('end');
  }
  get playing() {
    return !this.paused && !this.unloaded;
  }
  private emit(event: Exclude<keyof SoundEvents, 'loaderror'>) {
    for (const handler of [...(this.handlers.get(event) ?? [])]) handler();
  }
}

let coordinator: ReturnType<typeof createPlayerCoordinator>;
const stops: (() => void)[] = [];

beforeEach(() => {
  vi.useFakeTimers();
  coordinator = createPlayerCoordinator();
});
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  coordinator.stop();
  vi.useRealTimers();
});

/**
 * Messages between the tabs and the coordinator wait here until `deliver()`, in the order sent,
 * unless `atOnce`: then they arrive inside the call that sends them, as with a coordinator that
 * runs in the tab itself (a guest's player, or the leader tab without SharedWorker).
 */
function wire(atOnce = false) {
  const queue: (() => void)[] = [];
  return {
    send: (message: () => void) => (atOnce ? message() : queue.push(message)),
    deliver: () => {
      for (let message = queue.shift(); message; message = queue.shift()) message();
    },
    waiting: () => queue.length,
  };
}

/** A tab: its mirror of the shared state, and its engine making fake sounds. */
function openTab(tab: string, line: ReturnType<typeof wire>) {
  let shared: PlayerState = emptyPlayer;
  const view = (): EngineView => ({ ...shared, tab, playsHere: shared.playingTab === tab });
  const listeners = new Set<(view: EngineView) => void>();
  const sounds: FakeSound[] = [];
  let toCoordinator: ((message: TabMessage) => void) | null = null;
  const port: PlayerPort = {
    postMessage: (message: CoordinatorMessage) =>
      line.send(() => {
        shared = structuredClone(message.state);
        for (const listener of [...listeners]) listener(view());
      }),
    listen: (handler) => {
      toCoordinator = handler;
    },
  };
  coordinator.connect(port);
  const post = (message: TabMessage) => line.send(() => toCoordinator?.(structuredClone(message)));
  const command = (next: PlayerCommand) => post({ kind: 'command', command: next });
  post({ kind: 'hello', tab });

  const engine = createAudioEngine({
    getState: view,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    report: command,
    controls: {
      play: () => command({ type: 'play', tab }),
      pause: () => command({ type: 'pause', tab }),
      previous: () => command({ type: 'previous', tab }),
      next: () => command({ type: 'next', tab }),
      seek: (position) => command({ type: 'seek', position }),
    },
    createSound: (source) => {
      const sound = new FakeSound(source);
      sounds.push(sound);
      return sound;
    },
    mediaSession: createMediaSession({
      session: undefined,
      createMetadata: () => ({ title: '', artist: '', album: '', artwork: [] }),
      baseUrl: () => '',
    }),
    setLivePosition: () => undefined,
    pauseOtherAudio: () => undefined,
    soundChannel: null,
    network: { isOnline: () => true, onOnline: () => () => undefined },
  });
  stops.push(engine.stop);

  return {
    command,
    sounds,
    shared: () => shared,
    /** The sound made last. */
    get sound(): FakeSound {
      const sound = sounds.at(-1);
      if (!sound) throw new Error(`Tab ${tab} made no sound`);
      return sound;
    },
    playingSounds: () => sounds.filter((sound) => sound.playing),
  };
}

/** Tab A plays the album from `index`; tab B is open beside it. */
function playingInA(index = 0, line = wire()) {
  const a = openTab('A', line);
  const b = openTab('B', line);
  a.command({ type: 'load', tracks: album, index, tab: 'A' });
  line.deliver();
  expect(a.sound.source.src).toBe(album[index]?.src);
  expect(a.sound.playing).toBe(true);
  return { a, b, line };
}

describe('player on phones: the next track starts in the ended task', () => {
  it('sets the next source and plays it before any message, timer or microtask runs; the other tabs follow', async () => {
    const { a, b, line } = playingInA(0);
    const first = a.sound;

    first.reachEnd();
    // Nothing has run since the event's handlers: no message delivered, no promise settled.
    expect(a.shared()).toMatchObject({ index: 0, playing: true });
    expect(a.sounds).toHaveLength(2);
    expect(first.unloaded).toBe(true);
    expect(a.sound.source.src).toBe(album[1]?.src);
    expect(a.sound.plays).toBe(1);
    // The worker is told, afterwards.
    expect(line.waiting()).toBeGreaterThan(0);

    await Promise.resolve();
    line.deliver();
    expect(coordinator.state()).toMatchObject({ index: 1, playing: true, playingTab: 'A' });
    expect(b.shared()).toMatchObject({ index: 1, playing: true, playingTab: 'A' });
    // The worker's answer only confirms what already sounds: no second load, no second play.
    expect(a.sounds).toHaveLength(2);
    expect(a.sound.plays).toBe(1);
    expect(a.sound.playing).toBe(true);
    // Only the playing tab makes sound.
    expect(b.sounds).toHaveLength(0);

    // Its reports are about the new track, and the shared state takes them.
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    line.deliver();
    expect(coordinator.state()).toMatchObject({ index: 1, error: null });
  });

  it('an answer the worker sent before it heard of the end does not bring the ended track back', () => {
    const { a, line } = playingInA(0);
    // A progress report is on its way when the track ends: its echo still says Track 1.
    vi.advanceTimersByTime(PROGRESS_INTERVAL_MS);
    expect(line.waiting()).toBeGreaterThan(0);
    a.sound.reachEnd();
    line.deliver();
    expect(a.sounds.map((sound) => sound.source.src)).toEqual([album[0]?.src, album[1]?.src]);
    expect(a.sound.playing).toBe(true);
    expect(coordinator.state()).toMatchObject({ index: 1, playing: true });
  });

  it('the last track ending wraps to the first, stopped, at once', () => {
    const { a, line } = playingInA(2);
    a.sound.reachEnd();
    expect(a.sound.source.src).toBe(album[0]?.src);
    expect(a.sound.plays).toBe(0);
    line.deliver();
    expect(coordinator.state()).toMatchObject({ index: 0, playing: false });
    expect(a.sounds).toHaveLength(2);
    expect(a.playingSounds()).toEqual([]);
  });

  it('a tab that took the sound just before the end keeps it: the ending tab stops when it hears so', () => {
    const { a, b, line } = playingInA(0);
    // B's play reaches the worker before A's end does.
    b.command({ type: 'play', tab: 'B' });
    a.sound.reachEnd();
    expect(a.sound.source.src).toBe(album[1]?.src);

    line.deliver();
    expect(coordinator.state()).toMatchObject({ index: 0, playing: true, playingTab: 'B' });
    expect(a.playingSounds()).toEqual([]);
    expect(b.playingSounds().map((sound) => sound.source.src)).toEqual([album[0]?.src]);
  });

  it('with the coordinator in the tab itself, the answer arrives inside the ended event: one load, one play', () => {
    const { a } = playingInA(0, wire(true));
    a.sound.reachEnd();
    expect(a.sounds).toHaveLength(2);
    expect(a.sound.source.src).toBe(album[1]?.src);
    expect(a.sound.plays).toBe(1);
    expect(coordinator.state()).toMatchObject({ index: 1, playing: true, playingTab: 'A' });
  });
});
