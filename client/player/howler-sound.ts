import { Howl } from 'howler';
import type { Sound, SoundEvents, SoundSource } from './sound';

// The real sound: Howler in html5 mode streams through an <audio> element, so a long track starts
// at once and seeks with Range requests.

/** MediaError.MEDIA_ERR_NETWORK: the connection dropped, worth another try. */
const MEDIA_ERR_NETWORK = 2;

export function createHowlerSound({ src, volume }: SoundSource): Sound {
  const howl = new Howl({ src: [src], html5: true, format: ['mp3'], preload: true, volume });
  // Howler keeps the <audio> element private; its events are the only way to see buffering.
  const node = (howl as unknown as { _sounds: { _node?: HTMLAudioElement }[] })._sounds[0]?._node;
  /** Howler's id of the one sound played here, once started. */
  let id: number | null = null;
  const detachers: (() => void)[] = [];

  const listenToElement = (event: 'waiting' | 'playing', handler: () => void) => {
    node?.addEventListener(event, handler);
    detachers.push(() => node?.removeEventListener(event, handler));
  };
  const subscribe: { [Name in keyof SoundEvents]: (handler: SoundEvents[Name]) => void } = {
    play: (handler) => howl.on('play', () => handler()),
    pause: (handler) => howl.on('pause', () => handler()),
    end: (handler) => howl.on('end', () => handler()),
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
    if (id === null) howl.seek(seconds);
    else howl.seek(seconds, id);
  }

  return {
    play: () => {
      id = id === null ? howl.play() : howl.play(id);
    },
    pause: () => {
      howl.pause(id ?? undefined);
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
