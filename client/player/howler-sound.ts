import { Howl } from 'howler';
import type { Sound, SoundEvents, SoundSource } from './sound';

// The real sound: Howler in html5 mode streams through an <audio> element, so a long track starts
// at once and seeks with Range requests.
//
// Two of Howler's habits would make the next track start too late for iOS Safari, which starts
// sound only inside a user gesture's task or the previous track's `ended` task (audio-engine.ts):
// it reports every event from a setTimeout, and it holds play() back until the new source can
// play through. So the end is heard from the element itself, and a sound played before it loaded
// starts its element at once (Howler follows when the data is there). The <audio> element goes
// back to Howler's pool when the ended sound is unloaded, and the next sound takes it from there:
// the element that just played plays on.

/** MediaError.MEDIA_ERR_NETWORK: the connection dropped, worth another try. */
const MEDIA_ERR_NETWORK = 2;

export function createHowlerSound({ src, volume }: SoundSource): Sound {
  const howl = new Howl({ src: [src], html5: true, format: ['mp3'], preload: true, volume });
  // Howler keeps the <audio> element private; its events are the only way to see buffering.
  const node = (howl as unknown as { _sounds: { _node?: HTMLAudioElement }[] })._sounds[0]?._node;
  /** Howler's id of the one sound played here, once started. */
  let id: number | null = null;
  /** A position asked for before the first play, which Howler applies once loaded. */
  let startAt = 0;
  const detachers: (() => void)[] = [];

  const listenToElement = (event: 'waiting' | 'playing' | 'ended', handler: () => void) => {
    node?.addEventListener(event, handler);
    detachers.push(() => node?.removeEventListener(event, handler));
  };
  const subscribe: { [Name in keyof SoundEvents]: (handler: SoundEvents[Name]) => void } = {
    play: (handler) => howl.on('play', () => handler()),
    pause: (handler) => howl.on('pause', () => handler()),
    // Howler's own 'end' comes a task later: too late to start the next track on iOS.
    end: (handler) => listenToElement('ended', handler),
    // In html5 mode Howler passes the element's MediaError code.
    loaderror: (handler) =>
      howl.on('loaderror', (_id, code) => handler(code === MEDIA_ERR_NETWORK ? 'network' : 'media')),
    playerror: (handler) => howl.on('playerror', () => handler()),
    waiting: (handler) => listenToElement('waiting', handler),
    playing: (handler) => listenToElement('playing', handler),
  };

  function seek(): number;
  function seek(seconds: number): void;
  function seek(seconds?: number): number | void {
    if (seconds === undefined) {
      const at = id === null ? howl.seek() : howl.seek(id);
      return typeof at === 'number' ? at : NaN;
    }
    // Before the first play there is no id; Howler then seeks its first (only) sound, once loaded.
    if (id === null) {
      startAt = seconds;
      howl.seek(seconds);
    } else howl.seek(seconds, id);
  }

  return {
    play: () => {
      // Howler queues a play until the element can play through. The element starts now instead,
      // in this task (a browser may refuse it: Howler's own play then reports that). Not when it
      // is to start further in: it would sound from 0 until Howler's queued seek.
      if (id === null && howl.state() !== 'loaded' && startAt === 0) node?.play().catch(() => undefined);
      id = id === null ? howl.play() : howl.play(id);
    },
    pause: () => {
      howl.pause(id ?? undefined);
      // Howler's pause waits in its queue as well, while the element may already be playing.
      if (howl.state() !== 'loaded') node?.pause();
    },
    seek,
    state: () => howl.state(),
    duration: () => howl.duration(),
    unload: () => howl.unload(),
    on: (event, handler) => subscribe[event](handler),
    off: () => {
      for (const detach of detachers.splice(0)) detach();
      howl.off();
    },
    get paused() {
      return node?.paused ?? false;
    },
    get ended() {
      return node?.ended ?? false;
    },
  };
}
