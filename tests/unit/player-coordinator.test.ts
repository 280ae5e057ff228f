import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type CoordinatorMessage,
  createPlayerCoordinator,
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_TIMEOUT_MS,
  type PlayerPort,
  type TabMessage,
} from '../../client/player/coordinator';
import { emptyPlayer, type PlayerState } from '../../client/player/player-logic';
import type { PlayerTrack } from '../../shared/answers/library';

// The shared worker's relay between tabs, with mock ports and fake timers (STYLE.md, actualbudget).

const track = (index: number): PlayerTrack => ({
  src: `/api/tracks/${index}/stream?v=r`,
  name: `Track ${index}`,
  index,
  artistName: 'Artist',
  projectName: 'Album',
  projectSlug: 'album',
});

/** A tab's end of a MessagePort: what it received, and a way to speak. */
function mockTab(coordinator: ReturnType<typeof createPlayerCoordinator>) {
  const received: CoordinatorMessage[] = [];
  let deliver: ((message: TabMessage) => void) | null = null;
  const port: PlayerPort = {
    postMessage: (message) => received.push(structuredClone(message)),
    listen: (handler) => {
      deliver = handler;
    },
  };
  coordinator.connect(port);
  return {
    received,
    say: (message: TabMessage) => deliver?.(structuredClone(message)),
    last: (): PlayerState | undefined => received.at(-1)?.state,
  };
}

let coordinator: ReturnType<typeof createPlayerCoordinator>;

beforeEach(() => {
  vi.useFakeTimers();
  coordinator = createPlayerCoordinator();
});
afterEach(() => {
  coordinator.stop();
  vi.useRealTimers();
});

describe('player coordinator', () => {
  it('answers a hello with the state, and relays every change to every tab', () => {
    const a = mockTab(coordinator);
    const b = mockTab(coordinator);
    a.say({ kind: 'hello', tab: 'A' });
    b.say({ kind: 'hello', tab: 'B' });
    expect(a.last()?.tracklist).toEqual([]);
    a.say({ kind: 'command', command: { type: 'load', tracks: [track(1), track(2)], index: 0, tab: 'A' } });
    expect(a.last()).toMatchObject({ index: 0, playing: true, playingTab: 'A' });
    expect(b.last()).toEqual(a.last());
  });

  it('play in tab B takes the sound from tab A (spec: other tabs pause)', () => {
    const a = mockTab(coordinator);
    const b = mockTab(coordinator);
    a.say({ kind: 'hello', tab: 'A' });
    b.say({ kind: 'hello', tab: 'B' });
    a.say({ kind: 'command', command: { type: 'load', tracks: [track(1)], index: 0, tab: 'A' } });
    const version = a.last()!.seekVersion;
    a.say({ kind: 'command', command: { type: 'progress', tab: 'A', version, position: 20 } });
    b.say({ kind: 'command', command: { type: 'play', tab: 'B' } });
    expect(a.last()).toMatchObject({ playingTab: 'B', playing: true, position: 20 });
  });

  it('does not broadcast when a command changes nothing', () => {
    const a = mockTab(coordinator);
    a.say({ kind: 'hello', tab: 'A' });
    const before = a.received.length;
    a.say({ kind: 'command', command: { type: 'next', tab: 'A' } });
    a.say({ kind: 'ping' });
    expect(a.received).toHaveLength(before);
  });

  it('a reloaded tab restores its saved tracklist only when the player is empty', () => {
    const a = mockTab(coordinator);
    a.say({ kind: 'hello', tab: 'A', saved: { tracklist: [track(1), track(2)], index: 1, position: 33 } });
    expect(a.last()).toMatchObject({ index: 1, position: 33, playing: false });
    const b = mockTab(coordinator);
    b.say({ kind: 'hello', tab: 'B', saved: { tracklist: [track(9)], index: 0, position: 1 } });
    expect(b.last()?.tracklist.map((item) => item.name)).toEqual(['Track 1', 'Track 2']);
  });

  it('a playing tab that says bye stops the sound for everyone', () => {
    const a = mockTab(coordinator);
    const b = mockTab(coordinator);
    a.say({ kind: 'hello', tab: 'A' });
    b.say({ kind: 'hello', tab: 'B' });
    a.say({ kind: 'command', command: { type: 'load', tracks: [track(1)], index: 0, tab: 'A' } });
    a.say({ kind: 'bye' });
    expect(b.last()).toMatchObject({ playing: false, playingTab: null });
    expect(coordinator.connectedTabs()).toEqual(['B']);
  });

  it('drops a tab that stops pinging (crashed), and keeps one that pings', () => {
    const a = mockTab(coordinator);
    const b = mockTab(coordinator);
    a.say({ kind: 'hello', tab: 'A' });
    b.say({ kind: 'hello', tab: 'B' });
    a.say({ kind: 'command', command: { type: 'load', tracks: [track(1)], index: 0, tab: 'A' } });
    // B pings on time; A has gone silent.
    for (let elapsed = 0; elapsed <= HEARTBEAT_TIMEOUT_MS; elapsed += HEARTBEAT_INTERVAL_MS) {
      vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS);
      b.say({ kind: 'ping' });
    }
    expect(coordinator.connectedTabs()).toEqual(['B']);
    expect(b.last()).toMatchObject({ playing: false, playingTab: null });
    // A was only throttled: its next message brings it back.
    a.say({ kind: 'ping' });
    expect(coordinator.connectedTabs().sort()).toEqual(['A', 'B']);
  });

  it('a coordinator taking over a playing state stops it when the playing tab never says hello', () => {
    coordinator.stop();
    coordinator = createPlayerCoordinator({
      initial: { ...emptyPlayer, tracklist: [track(1)], playing: true, playingTab: 'gone' },
    });
    const b = mockTab(coordinator);
    b.say({ kind: 'hello', tab: 'B' });
    vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS);
    // Tabs get time to say hello to a new coordinator before anything is given up.
    expect(b.last()).toMatchObject({ playing: true, playingTab: 'gone' });
    for (let elapsed = 0; elapsed <= HEARTBEAT_TIMEOUT_MS; elapsed += HEARTBEAT_INTERVAL_MS) {
      vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS);
      b.say({ kind: 'ping' });
    }
    expect(b.last()).toMatchObject({ playing: false, playingTab: null });
  });

  it('keeps going when a dead port throws on postMessage', () => {
    const broken: PlayerPort = {
      postMessage: () => {
        throw new Error('port closed');
      },
      listen: () => undefined,
    };
    coordinator.connect(broken);
    const a = mockTab(coordinator);
    a.say({ kind: 'hello', tab: 'A' });
    a.say({ kind: 'command', command: { type: 'load', tracks: [track(1)], index: 0, tab: 'A' } });
    expect(a.last()?.playing).toBe(true);
  });
});
