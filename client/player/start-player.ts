import type { SoundChannel } from './audio-engine';
import { createMediaSession } from './media-session';
import type { PlayerLink } from './player-link';
import {
  attachLink,
  detachLink,
  keepGuestPlayer,
  keepPlayer,
  offerSaved,
  playerControls,
  receiveState,
  saveBeforeLeaving,
  sendToPlayer,
  setLivePosition,
  usePlayerStore,
} from './player-store';

// Puts this tab's player together (DESIGN.md section 3): the link to the player's state feeds the
// store; the audio engine follows the store, reports through the link and drives the sound and the
// lock screen. The only module that knows all three, so none of them imports another. The link
// and the engine load on first use: a page that only shows a Play button does not carry Howler.
//
// The engine is made once per tab; the link is made for whoever the player belongs to: the
// logged-in account's link reaches the state shared by every tab, a guest's a state of this tab's
// own (client/player/player-dock.tsx). When the player changes hands, the old link goes first.

type Owner = 'account' | 'guest';

let engine: Promise<void> | null = null;
let current: { owner: Owner; ready: Promise<void> } | null = null;
let link: PlayerLink | null = null;
/** Counts the links asked for, so one that loads after another was asked for is not attached. */
let generation = 0;

/** Connects this tab to the logged-in account's shared player (idempotent). */
export function startPlayer(): Promise<void> {
  keepPlayer();
  return connectFor('account');
}

/** Gives this tab a player of its own for a guest's granted tracks (idempotent). */
export function startGuestPlayer(): Promise<void> {
  keepGuestPlayer();
  return connectFor('guest');
}

function connectFor(owner: Owner): Promise<void> {
  if (current?.owner === owner) return current.ready;
  if (current) {
    detachLink();
    link = null;
  }
  const asked = ++generation;
  const ready = connect(owner, asked).catch((error: unknown) => {
    // A chunk that failed to load (a deploy, a dropped connection): the next call tries again.
    if (current?.ready === ready) current = null;
    throw error;
  });
  current = { owner, ready };
  return ready;
}

async function connect(owner: Owner, asked: number) {
  const [{ connectPlayer, connectLocalPlayer }, { readSavedPlayer }] = await Promise.all([
    import('./player-link'),
    import('./saved-player'),
    startEngine(),
  ]);
  if (asked !== generation) return;
  const tab = usePlayerStore.getState().tab;
  link =
    owner === 'account'
      ? connectPlayer({ tab, saved: () => offerSaved(readSavedPlayer), onState: receiveState })
      : // A guest's player starts empty: what this tab saved was an account's.
        connectLocalPlayer({ tab, saved: () => undefined, onState: receiveState });
  attachLink(link);
}

function startEngine(): Promise<void> {
  engine ??= createEngine().catch((error: unknown) => {
    engine = null;
    throw error;
  });
  return engine;
}

async function createEngine() {
  const [{ createAudioEngine }, { createHowlerSound }] = await Promise.all([
    import('./audio-engine'),
    import('./howler-sound'),
  ]);
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
    link?.close();
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
