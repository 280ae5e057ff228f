import { describe, expect, it } from 'vitest';
import { createMediaSession, type MediaSessionApi } from '../../client/player/media-session';
import type { PlayerTrack } from '../../shared/answers/library';

// The lock screen's and headset's buttons (issue 27, "Player on phones"; spec part 1 section 4:
// previous, next and play). iOS shows two buttons beside play: previous and next, unless the page
// has seek-back or seek-forward handlers, which take those places as -10 s / +10 s.

const track: PlayerTrack = {
  src: '/api/tracks/1/stream?v=r',
  name: 'Track 1',
  index: 0,
  artistName: 'The Testers',
  projectName: 'Album',
  projectSlug: 'album',
  albumCoverSrc: '/media/images/cover.jpg',
};

/** navigator.mediaSession as a browser keeps it: the last handler set for each action. */
class FakeMediaSession implements MediaSessionApi {
  metadata: MediaMetadata | null = null;
  playbackState: MediaSessionPlaybackState = 'none';
  readonly handlers = new Map<MediaSessionAction, MediaSessionActionHandler | null>();

  constructor(private readonly unknownActions: MediaSessionAction[] = []) {}

  setActionHandler(action: MediaSessionAction, handler: MediaSessionActionHandler | null) {
    // Browsers throw on an action they do not know.
    if (this.unknownActions.includes(action)) throw new TypeError(`Unknown action ${action}`);
    this.handlers.set(action, handler);
  }
  press(action: MediaSessionAction, details: Omit<MediaSessionActionDetails, 'action'> = {}) {
    const handler = this.handlers.get(action);
    if (!handler) throw new Error(`No handler for ${action}`);
    handler({ action, ...details });
  }
}

function announce(session: FakeMediaSession) {
  const pressed: string[] = [];
  createMediaSession({
    session,
    createMetadata: (init) => ({ title: init.title ?? '', artist: '', album: '', artwork: init.artwork ?? [] }),
    baseUrl: () => 'https://soundcause.test/music',
  }).announceTrack(track, {
    play: () => pressed.push('play'),
    pause: () => pressed.push('pause'),
    previous: () => pressed.push('previous'),
    next: () => pressed.push('next'),
    seek: (seconds) => pressed.push(`seek ${seconds}`),
  });
  return pressed;
}

describe('player media session', () => {
  it('binds previous, next, play, pause and the scrubber to the player', () => {
    const session = new FakeMediaSession();
    const pressed = announce(session);
    for (const action of ['previoustrack', 'nexttrack', 'play', 'pause'] as const) session.press(action);
    session.press('seekto', { seekTime: 42 });
    expect(pressed).toEqual(['previous', 'next', 'play', 'pause', 'seek 42']);
    expect(session.metadata).toMatchObject({
      title: 'Track 1',
      artwork: [{ src: 'https://soundcause.test/media/images/cover.jpg' }],
    });
  });

  it('leaves previous and next in place: seek back and forward are cleared, never bound', () => {
    const session = new FakeMediaSession();
    announce(session);
    // Explicitly null, not just unset: either kind of handler would take the track buttons' places on iOS.
    expect(session.handlers.has('seekbackward')).toBe(true);
    expect(session.handlers.get('seekbackward')).toBeNull();
    expect(session.handlers.has('seekforward')).toBe(true);
    expect(session.handlers.get('seekforward')).toBeNull();
    expect(session.handlers.get('previoustrack')).toBeTypeOf('function');
    expect(session.handlers.get('nexttrack')).toBeTypeOf('function');
  });

  it('a browser that knows no seek actions still gets the track buttons', () => {
    const session = new FakeMediaSession(['seekbackward', 'seekforward', 'seekto']);
    const pressed = announce(session);
    session.press('previoustrack');
    session.press('nexttrack');
    expect(pressed).toEqual(['previous', 'next']);
  });
});
