// The one sound the audio engine plays, reduced to what the engine uses. Howler sits behind it in
// howler-sound.ts; the engine's unit tests give it a fake, so they run in node without a browser
// (STYLE.md rule 8).

export type SoundEvents = {
  /** The sound started or resumed. */
  play: () => void;
  /** The sound was paused by a call to pause(). */
  pause: () => void;
  /**
   * The track played to its end: called from the media element's `ended` event itself, not a
   * later task, so the next track can start there (iOS Safari allows it nowhere later).
   */
  end: () => void;
  /** The source could not be read; 'network' when a dropped connection is to blame. */
  loaderror: (cause: 'network' | 'media') => void;
  /** The browser refused to start the sound (no user gesture in this tab yet). */
  playerror: () => void;
  /** The media element waits for data. */
  waiting: () => void;
  /** The media element has data again and plays. */
  playing: () => void;
};

export type Sound = {
  play: () => void;
  pause: () => void;
  /** Seconds into the track, NaN while the element cannot tell. */
  seek(): number;
  seek(seconds: number): void;
  state: () => 'unloaded' | 'loading' | 'loaded';
  /** Seconds, 0 until known. */
  duration: () => number;
  unload: () => void;
  on: <Name extends keyof SoundEvents>(event: Name, handler: SoundEvents[Name]) => void;
  /** Removes every handler, so nothing is reported about a sound nobody wants. */
  off: () => void;
  /** The media element is paused: by this sound, or by someone else (the OS, a headset unplugged). */
  readonly paused: boolean;
  readonly ended: boolean;
};

export type SoundSource = {
  src: string;
  /** 0 to 1. */
  volume: number;
};

export type CreateSound = (source: SoundSource) => Sound;
