import type { PlayerTrack } from '../../shared/schemas/library';

// Headset buttons, media keys and the lock screen (Media Session API; spec part 1 section 4:
// previous, next and play). Only the tab that makes the sound talks to it.

export type MediaSessionControls = {
  play: () => void;
  pause: () => void;
  previous: () => void;
  next: () => void;
  seek: (seconds: number) => void;
};

const supported = () => typeof navigator !== 'undefined' && 'mediaSession' in navigator;

/**
 * Names the track and (re)binds the handlers. Called whenever playback starts: iOS drops the
 * handlers when another page or app took the audio focus.
 */
export function announceTrack(track: PlayerTrack, controls: MediaSessionControls) {
  if (!supported()) return;
  const session = navigator.mediaSession;
  session.metadata = new MediaMetadata({
    title: track.name,
    artist: track.artistName,
    album: track.projectName,
    artwork: track.albumCoverSrc
      ? [{ src: new URL(track.albumCoverSrc, location.href).href, sizes: '400x400', type: 'image/jpeg' }]
      : [],
  });
  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => controls.play()],
    ['pause', () => controls.pause()],
    ['previoustrack', () => controls.previous()],
    ['nexttrack', () => controls.next()],
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
}

export function showPlaybackState(playing: boolean) {
  if (supported()) navigator.mediaSession.playbackState = playing ? 'playing' : 'paused';
}

/** Lets the lock screen draw its scrubber; ignored when the numbers do not make sense yet. */
export function showPosition(durationSeconds: number, positionSeconds: number) {
  if (!supported() || !navigator.mediaSession.setPositionState) return;
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return;
  try {
    navigator.mediaSession.setPositionState({
      duration: durationSeconds,
      position: Math.min(Math.max(0, positionSeconds), durationSeconds),
      playbackRate: 1,
    });
  } catch {
    // Position past the duration while metadata settles: the next update fixes it.
  }
}

/** This tab no longer plays: another one owns the lock screen now. */
export function leaveMediaSession() {
  if (!supported()) return;
  navigator.mediaSession.metadata = null;
  navigator.mediaSession.playbackState = 'none';
}
