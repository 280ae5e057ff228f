import type { SoundChannel } from './audio-engine';
import { createMediaSession } from './media-session';
import {
  attachLink,
  keepPlayer,
  offerSaved,
  playerControls,
  receiveState,
  saveBeforeLeaving,
  sendToPlayer,
  setLivePosition,
  usePlayerStore,
} from './player-store';

// Puts this tab's player together (DESIGN.md section 3): the link to the shared state feeds the
// store; the audio engine follows the store, reports through the link and drives the sound and the
// lock screen. The only module that knows all three, so none of them imports another. The link
// and the engine load on first use: a page that only shows a Play button does not carry Howler.

let starting: Promise<void> | null = null;

/** Connects this tab to the shared player (idempotent). */
export function startPlayer(): Promise<void> {
  keepPlayer();
  starting ??= connect().catch((error: unknown) => {
    // A chunk that failed to load (a deploy, a dropped connection): the next call tries again.
    starting = null;
    throw error;
  });
  return starting;
}

async function connect() {
  const [{ connectPlayer }, { createAudioEngine }, { createHowlerSound }] = await Promise.all([
    import('./player-link'),
    import('./audio-engine'),
    import('./howler-sound'),
  ]);
  const link = connectPlayer({ tab: usePlayerStore.getState().tab, saved: offerSaved, onState: receiveState });
  attachLink(link);
  createAudioEngine({
    getState: usePlayerStore.getState,
    subscribe: usePlayerStore.subscribe,
    report: sendToPlayer,
    controls: playerControls,
    createSound: createHowlerSound,
    mediaSession: createMediaSession({
      session: 'mediaSession' in navigator ? navigator.mediaSession : undefined,
      createMetadata: (init) => new MediaMetadata(init),
      baseUrl: () => location.href,
    }),
    setLivePosition,
    pauseOtherAudio: () => {
      for (const element of document.querySelectorAll('audio')) element.pause();
    },
    soundChannel: openSoundChannel(),
    network: {
      isOnline: () => navigator.onLine,
      onOnline: (handler) => {
        window.addEventListener('online', handler);
        return () => window.removeEventListener('online', handler);
      },
    },
  });
  // Leaving, even into the back/forward cache (where the sound stops): the other tabs take over.
  // A page restored from that cache says hello again (player-link).
  window.addEventListener('pagehide', () => {
    saveBeforeLeaving();
    link.close();
  });
}

function openSoundChannel(): SoundChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel('soundcause-sound');
  return {
    announce: (tab) => channel.postMessage({ tab }),
    listen: (handler) => {
      channel.onmessage = (event: MessageEvent<{ tab?: string }>) => handler(event.data.tab);
    },
    close: () => channel.close(),
  };
}
