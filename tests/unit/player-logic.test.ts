import { describe, expect, it } from 'vitest';
import type { PlayerTrack } from '../../shared/answers/library';
import { formatPlaybackTime } from '../../shared/time';
import { emptyPlayer, type PlayerCommand, playerReducer, type PlayerState } from '../../client/player/player-logic';

// The player's rules (spec part 1 section 4), without a browser.

const track = (index: number, durationSeconds = 180): PlayerTrack => ({
  src: `/api/tracks/${index + 1}/stream?v=r${index}`,
  name: `Track ${index + 1}`,
  index,
  artistName: 'The Testers',
  projectName: 'Album',
  projectSlug: 'album',
  trackId: index + 1,
  durationSeconds,
});
const album = [track(0), track(1), track(2)];

type Step = PlayerCommand | ((state: PlayerState) => PlayerCommand);
const run = (state: PlayerState, ...steps: Step[]) =>
  steps.reduce((next, step) => playerReducer(next, typeof step === 'function' ? step(next) : step), state);
/** Reports from a tab about the sound it plays now (the current seekVersion). */
const progress =
  (position: number, tab = 'A') =>
  (state: PlayerState): PlayerCommand => ({
    type: 'progress',
    tab,
    version: state.seekVersion,
    position,
  });
const ended =
  (tab = 'A') =>
  (state: PlayerState): PlayerCommand => ({ type: 'ended', tab, version: state.seekVersion });
const failed =
  (message: string, tab = 'A') =>
  (state: PlayerState): PlayerCommand => ({
    type: 'failed',
    tab,
    version: state.seekVersion,
    message,
  });
const buffering =
  (value: boolean, tab = 'A') =>
  (state: PlayerState): PlayerCommand => ({
    type: 'buffering',
    tab,
    version: state.seekVersion,
    buffering: value,
  });
const loaded = (index = 0) => run(emptyPlayer, { type: 'load', tracks: album, index, tab: 'A' });

describe('player logic', () => {
  it('loading an album plays the chosen track in the tab that asked', () => {
    const state = loaded(1);
    expect(state).toMatchObject({ index: 1, position: 0, playing: true, playingTab: 'A', error: null });
    expect(state.tracklist).toHaveLength(3);
  });

  it('next moves on and keeps playing; on the last track it wraps to the first and stops', () => {
    const second = run(loaded(0), { type: 'next', tab: 'A' });
    expect(second).toMatchObject({ index: 1, playing: true });
    const wrapped = run(loaded(2), progress(50), { type: 'next', tab: 'A' });
    expect(wrapped).toMatchObject({ index: 0, position: 0, playing: false });
  });

  it('previous restarts the track after 2 seconds, otherwise goes to the previous track', () => {
    const at = (position: number) => run(loaded(1), progress(position), { type: 'previous', tab: 'A' });
    const restarted = at(2.5);
    expect(restarted).toMatchObject({ index: 1, position: 0 });
    expect(restarted.seekVersion).toBeGreaterThan(loaded(1).seekVersion);
    expect(at(2)).toMatchObject({ index: 0, position: 0, playing: true });
    expect(at(1.2)).toMatchObject({ index: 0 });
    // The playing tab's live position decides, not the last report a second ago.
    const live = run(loaded(1), progress(1.5), { type: 'previous', tab: 'A', position: 2.4 });
    expect(live).toMatchObject({ index: 1, position: 0 });
    const notPlaying = run(loaded(1), progress(1.5), { type: 'previous', tab: 'B', position: 9 });
    expect(notPlaying.index).toBe(0);
    // On the first track there is nothing before it: it starts again.
    expect(run(loaded(0), { type: 'previous', tab: 'A' })).toMatchObject({ index: 0, position: 0 });
  });

  it('a track that ends plays the next; the album that ends wraps to the first and stops', () => {
    const next = run(loaded(0), { type: 'pause' }, { type: 'play', tab: 'A' }, ended());
    expect(next).toMatchObject({ index: 1, playing: true, position: 0 });
    expect(run(loaded(2), ended())).toMatchObject({ index: 0, playing: false });
  });

  it('playing in another tab takes the sound from the first one', () => {
    const taken = run(loaded(0), progress(30), { type: 'play', tab: 'B' });
    expect(taken).toMatchObject({ playing: true, playingTab: 'B', position: 30 });
    // B must move its sound to where A was.
    expect(taken.seekVersion).toBeGreaterThan(loaded(0).seekVersion);
    // A's late reports no longer move the shared position, and its 'ended' does not skip B's track.
    expect(run(taken, progress(99)).position).toBe(30);
    expect(run(taken, ended()).index).toBe(0);
  });

  it('pause from the playing tab records where its sound stopped; from elsewhere it keeps the last report', () => {
    const reported = run(loaded(0), progress(12));
    expect(run(reported, { type: 'pause', tab: 'A', position: 12.8 }).position).toBe(12.8);
    expect(run(reported, { type: 'pause', tab: 'B', position: 99 }).position).toBe(12);
  });

  it('pause keeps the track and position; play resumes without a seek', () => {
    const paused = run(loaded(0), progress(12), { type: 'pause' });
    expect(paused).toMatchObject({ playing: false, position: 12, playingTab: 'A' });
    const resumed = run(paused, { type: 'play', tab: 'A' });
    expect(resumed).toMatchObject({ playing: true, position: 12 });
    expect(resumed.seekVersion).toBe(paused.seekVersion);
  });

  it('seek moves the position within the track and asks the playing tab to follow', () => {
    const sought = run(loaded(0), { type: 'seek', position: 42 });
    expect(sought.position).toBe(42);
    expect(sought.seekVersion).toBeGreaterThan(loaded(0).seekVersion);
    // A seek to the end lands just short of it, so the track ends (and the next follows) by itself.
    expect(run(loaded(0), { type: 'seek', position: 9999 }).position).toBe(179.5);
    expect(run(loaded(0), { type: 'seek', position: -5 }).position).toBe(0);
    expect(run(loaded(0), { type: 'seek', position: Number.NaN }).position).toBe(0);
  });

  it('a failed track stops with its message until play retries it or next moves on', () => {
    const stopped = run(loaded(0), failed('This track could not be played.'));
    expect(stopped).toMatchObject({ playing: false, error: 'This track could not be played.' });
    expect(run(stopped, { type: 'play', tab: 'A' })).toMatchObject({ playing: true, error: null });
    expect(run(stopped, { type: 'next', tab: 'A' })).toMatchObject({ index: 1, error: null, playing: true });
    // Only the playing tab's failures count.
    expect(run(loaded(0), failed('x', 'B')).error).toBeNull();
  });

  it('buffering is reported by the playing tab only and cleared by a pause', () => {
    const waiting = run(loaded(0), buffering(true));
    expect(waiting.buffering).toBe(true);
    expect(run(loaded(0), buffering(true, 'B')).buffering).toBe(false);
    expect(run(waiting, { type: 'pause' }).buffering).toBe(false);
  });

  it('a reloaded tab restores what it saved only into an empty player', () => {
    const saved = { tracklist: album, index: 2, position: 61 };
    const restored = run(emptyPlayer, { type: 'restore', saved });
    expect(restored).toMatchObject({ index: 2, position: 61, playing: false, playingTab: null });
    const busy = run(loaded(0), { type: 'restore', saved });
    expect(busy.index).toBe(0);
    expect(run(emptyPlayer, { type: 'restore', saved: { ...saved, index: 7 } }).index).toBe(2);
  });

  it('the playing tab going away stops the sound; another tab going away changes nothing', () => {
    expect(run(loaded(0), { type: 'tab-gone', tab: 'A' })).toMatchObject({ playing: false, playingTab: null });
    expect(run(loaded(0), { type: 'tab-gone', tab: 'B' })).toMatchObject({ playing: true, playingTab: 'A' });
    // A paused tab whose heartbeat lapsed (throttled while hidden) keeps the lock screen's controls.
    const paused = run(loaded(0), { type: 'pause' });
    expect(run(paused, { type: 'tab-gone', tab: 'A' })).toBe(paused);
  });

  it('ignores reports about a sound the listener already moved on from', () => {
    const before = loaded(0);
    const stale = (state: PlayerState) => ({ ...state, seekVersion: before.seekVersion });
    // An 'ended' in flight when next was pressed must not skip a second track.
    const moved = run(before, { type: 'next', tab: 'A' });
    expect(run(moved, (state) => ended()(stale(state))).index).toBe(1);
    // A late progress of the old track does not become the new track's position.
    expect(run(moved, (state) => progress(170)(stale(state))).position).toBe(0);
    // A failure of the old sound does not mark the new track as failed.
    expect(run(moved, (state) => failed('x')(stale(state))).error).toBeNull();
    // After a seek, the sound's reports from before it are stale too.
    const sought = run(before, { type: 'seek', position: 60 });
    expect(run(sought, (state) => progress(3)(stale(state))).position).toBe(60);
  });

  it('next on a one-track album stops at its start', () => {
    const single = run(emptyPlayer, { type: 'load', tracks: [track(0)], index: 0, tab: 'A' }, progress(40));
    const stopped = run(single, { type: 'next', tab: 'A' });
    expect(stopped).toMatchObject({ index: 0, position: 0, playing: false });
    expect(stopped.seekVersion).toBeGreaterThan(single.seekVersion);
  });

  it('clear empties the player; commands on an empty player do nothing', () => {
    expect(run(loaded(1), { type: 'clear' })).toMatchObject({ tracklist: [], playing: false, playingTab: null });
    for (const command of [
      { type: 'play', tab: 'A' },
      { type: 'next', tab: 'A' },
      { type: 'previous', tab: 'A' },
      { type: 'seek', position: 3 },
      { type: 'load', tracks: [], index: 0, tab: 'A' },
    ] satisfies PlayerCommand[]) {
      expect(playerReducer(emptyPlayer, command)).toBe(emptyPlayer);
    }
  });
});

describe('playback time', () => {
  it('is mm:ss, and hh:mm:ss from 3600 s', () => {
    expect(formatPlaybackTime(0)).toBe('00:00');
    expect(formatPlaybackTime(7.9)).toBe('00:07');
    expect(formatPlaybackTime(187)).toBe('03:07');
    expect(formatPlaybackTime(3599)).toBe('59:59');
    expect(formatPlaybackTime(3600)).toBe('01:00:00');
    expect(formatPlaybackTime(3723)).toBe('01:02:03');
    expect(formatPlaybackTime(Number.NaN)).toBe('00:00');
  });
});
