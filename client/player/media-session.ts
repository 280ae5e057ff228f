import type { PlayerTrack } from '../../shared/answers/library';

// Headset buttons, media keys and the lock screen (Media Session API,
// https://w3c.github.io/mediasession/; spec part 1 section 4: previous, next and play). Only the tab
// that makes the sound talks to it.

export type MediaSessionControls = {
  play: () => void;
  pause: () => void;
  previous: () => void;
  next: () => void;
  seek: (seconds: number) => void;
};

/** The part of navigator.mediaSession the player uses (setPositionState is missing in older browsers). */
export type MediaSessionApi = {
  metadata: MediaMetadata | null;
  playbackState: MediaSessionPlaybackState;
  setActionHandler: (action: MediaSessionAction, handler: MediaSessionActionHandler | null) => void;
  setPositionState?: (state?: MediaPositionState) => void;
};

export type PlayerMediaSession = {
  /**
   * Names the track and (re)binds the handlers. Called whenever playback starts: iOS drops the
   * handlers when another page or app took the audio focus.
   */
  announceTrack: (track: PlayerTrack, controls: MediaSessionControls) => void;
  showPlaybackState: (playing: boolean) => void;
  /** Lets the lock screen draw its scrubber; ignored when the numbers do not make sense yet. */
  showPosition: (durationSeconds: number, positionSeconds: number) => void;
  /** This tab no longer plays: another one owns the lock screen now. */
  leave: () => void;
};

type Options = {
  /** Undefined where the browser has no Media Session API: then every call does nothing. */
  session: MediaSessionApi | undefined;
  createMetadata: (init: MediaMetadataInit) => MediaMetadata;
  /** The page's address, against which cover paths are made absolute. */
  baseUrl: () => string;
};

export function createMediaSession({ session, createMetadata, baseUrl }: Options): PlayerMediaSession {
  return {
    announceTrack(track, controls) {
      if (!session) return;
      session.metadata = createMetadata({
        title: track.name,
        artist: track.artistName,
        album: track.projectName,
        artwork: track.albumCoverSrc
          ? [{ src: new URL(track.albumCoverSrc, baseUrl()).href, sizes: '400x400', type: 'image/jpeg' }]
          : [],
      });
      const handlers: [MediaSessionAction, MediaSessionActionHandler | null][] = [
        ['play', () => controls.play()],
        ['pause', () => controls.pause()],
        // Seek back and forward are cleared, never bound. The lock screen on iOS (and Safari's
        // Now Playing on macOS) has two places beside play: with a seek-back or seek-forward
        // handler they become -10 s / +10 s buttons instead of previous / next, and WebKit is
        // reported to offer its own seek buttons there unless these are null rather than unset.
        // This player always has a previous (a restart, or the track before) and a next (the
        // track after, or back to the first), so the track buttons take those places; the
        // scrubber (seekto) still seeks. Where both could show (Chrome's media controls), this
        // gives up ±10 s buttons the spec does not ask for (part 1 section 4: previous, next, play).
        ['seekbackward', null],
        ['seekforward', null],
        ['previoustrack', () => controls.previous()],
        ['nexttrack', () => controls.next()],
        // The lock screen's scrubber.
        [
          'seekto',
          (details) => {
            if (details.seekTime !== undefined) controls.seek(details.seekTime);
          },
        ],
      ];
      for (const [action, handler] of handlers) {
        try {
          session.setActionHandler(action, handler);
        } catch {
          // A browser that does not know this action: the others still work.
        }
      }
    },

    showPlaybackState(playing) {
      if (session) session.playbackState = playing ? 'playing' : 'paused';
    },

    showPosition(durationSeconds, positionSeconds) {
      if (!session?.setPositionState) return;
      if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return;
      try {
        session.setPositionState({
          duration: durationSeconds,
          position: Math.min(Math.max(0, positionSeconds), durationSeconds),
          playbackRate: 1,
        });
      } catch {
        // Position past the duration while metadata settles: the next update fixes it.
      }
    },

    leave() {
      if (!session) return;
      session.metadata = null;
      session.playbackState = 'none';
    },
  };
}
