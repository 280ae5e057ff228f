import type { EmbedData } from '../../shared/embed';
import './embed.css';

// The embedded player's script (issue 28): the page arrives drawn by the server
// (server/features/sharing/embed-page.ts), and this makes its buttons play the previews. Its own
// build entry, kept to a few kilobytes: no React, no app shell, no service worker. One <audio>
// element plays: Howler's work for the app (tabs, formats, fades) has no place in one frame.

const data = JSON.parse(document.getElementById('embed-data')?.textContent ?? 'null') as EmbedData | null;

/**
 * Whether another site's page frames this one: what the owner's counts are about. The site's own
 * Share dialog previews the player (no visit from an embed), and the page opened by itself is
 * none either. Another site's page cannot be read from here, which is how it is told apart.
 */
function framedElsewhere(): boolean {
  if (window.top === window) return false;
  try {
    return window.top?.location.origin !== location.origin;
  } catch {
    return true;
  }
}

/** Counts for the owner (a view, a preview played): no cookie, no id, nothing about the visitor. */
function report(kind: 'view' | 'play') {
  if (!data || !framedElsewhere()) return;
  // No body: a sandboxed frame's origin is "null", and a body typed as JSON would make the
  // browser ask the server first (a CORS preflight); this is sent as it is.
  const path = `/api/fundraisers/${data.fundraiserId}/embed-events?kind=${kind}`;
  if (!navigator.sendBeacon?.(path)) {
    void fetch(path, { method: 'POST', mode: 'no-cors', keepalive: true }).catch(() => {});
  }
}

/** 75 → "1:15". */
function clock(seconds: number): string {
  const whole = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

function startPlayer(data: EmbedData) {
  const found = document.querySelector<HTMLButtonElement>('.embed-play');
  // A fundraiser with no preview yet has no player (embed-page.ts).
  if (!found || data.tracks.length === 0) return;
  const play = found;
  // The rest of the player is drawn with its play button.
  const next = document.querySelector<HTMLButtonElement>('.embed-next');
  const seek = document.querySelector<HTMLInputElement>('.embed-seek')!;
  const time = document.querySelector<HTMLElement>('.embed-time')!;
  const nowName = document.querySelector<HTMLElement>('.embed-now-name')!;
  const trackButtons = [...document.querySelectorAll<HTMLButtonElement>('.embed-track')];

  const audio = new Audio();
  audio.preload = 'none';
  let index = 0;
  let loaded = -1;
  const played = new Set<number>();
  let seeking = false;

  const track = () => data.tracks[index]!;

  function showTrack() {
    nowName.textContent = track().name;
    for (const button of trackButtons) {
      const current = Number(button.dataset.index) === index;
      if (current) button.setAttribute('aria-current', 'true');
      else button.removeAttribute('aria-current');
    }
    showPlaying();
  }

  function showPlaying() {
    const playing = !audio.paused;
    document.documentElement.classList.toggle('embed-playing', playing);
    play.setAttribute('aria-label', `${playing ? 'Pause' : 'Play'} preview of ${track().name}`);
    // The playing track's button pauses it, and says so.
    for (const button of trackButtons) {
      const action = button.querySelector('.embed-track-action');
      const pauses = playing && Number(button.dataset.index) === index;
      if (action) action.textContent = pauses ? 'Pause preview of ' : 'Play preview of ';
    }
    if ('mediaSession' in navigator) navigator.mediaSession.playbackState = playing ? 'playing' : 'paused';
  }

  function showTime() {
    const duration = Number.isFinite(audio.duration) ? audio.duration : 0;
    if (!seeking) {
      seek.max = String(Math.max(1, Math.round(duration)));
      seek.value = String(Math.floor(audio.currentTime));
    }
    seek.setAttribute('aria-valuetext', `${clock(audio.currentTime)} of ${clock(duration)}`);
    time.textContent = clock(audio.currentTime);
    if ('mediaSession' in navigator && duration > 0 && audio.currentTime <= duration) {
      navigator.mediaSession.setPositionState?.({ duration, position: audio.currentTime, playbackRate: 1 });
    }
  }

  function describeForMediaSession() {
    if (!('mediaSession' in navigator)) return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: track().name,
      artist: data.artist,
      album: data.title,
      artwork: data.artwork.map((art) => ({ ...art, src: new URL(art.src, location.href).href })),
    });
  }

  /** Plays preview `at` from its start (or goes on with it, when it is the one loaded). */
  function playTrack(at: number) {
    index = (at + data.tracks.length) % data.tracks.length;
    if (loaded !== index) {
      audio.src = track().src;
      loaded = index;
      seek.disabled = false;
    }
    showTrack();
    describeForMediaSession();
    if (!played.has(index)) {
      played.add(index);
      report('play');
    }
    // Refused (no gesture yet, or the frame was not allowed autoplay): the button stays Play.
    audio.play().catch(() => showPlaying());
  }

  /** Back to the start of this preview, or to the one before when it has barely begun. */
  function previous() {
    if (audio.currentTime > 3 && loaded === index) {
      audio.currentTime = 0;
      playTrack(index);
    } else playTrack(index - 1);
  }

  function toggle() {
    if (audio.paused) playTrack(index);
    else audio.pause();
  }

  play.addEventListener('click', toggle);
  next?.addEventListener('click', () => playTrack(index + 1));
  for (const button of trackButtons) {
    button.addEventListener('click', () => {
      const at = Number(button.dataset.index);
      if (at === index && loaded === index && !audio.paused) audio.pause();
      else playTrack(at);
    });
  }
  seek.addEventListener('input', () => {
    seeking = true;
    time.textContent = clock(Number(seek.value));
  });
  seek.addEventListener('change', () => {
    seeking = false;
    if (loaded === index) audio.currentTime = Number(seek.value);
  });

  audio.addEventListener('play', showPlaying);
  audio.addEventListener('pause', showPlaying);
  audio.addEventListener('timeupdate', showTime);
  audio.addEventListener('durationchange', showTime);
  // The next preview starts inside the ended event's own task: a phone with the screen locked
  // allows a new play() only there (as the app's player does, issue 27).
  audio.addEventListener('ended', () => {
    if (index + 1 < data.tracks.length) playTrack(index + 1);
    else {
      // The album's previews are over: back to the first, at its start, as before any play.
      index = 0;
      stopped();
    }
  });
  // A preview that cannot be played (gone, offline): the player stops there, ready to try again.
  audio.addEventListener('error', () => stopped());

  /** The player as before any play, on the current preview. */
  function stopped() {
    loaded = -1;
    seek.value = '0';
    seek.setAttribute('aria-valuetext', '0:00');
    time.textContent = '0:00';
    // A disabled control drops the focus: it goes to Play first.
    if (document.activeElement === seek) play.focus();
    seek.disabled = true;
    showTrack();
  }

  if ('mediaSession' in navigator) {
    const session = navigator.mediaSession;
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => playTrack(index)],
      ['pause', () => audio.pause()],
      ['nexttrack', () => playTrack(index + 1)],
      ['previoustrack', () => previous()],
      ['seekto', (details) => details.seekTime !== undefined && (audio.currentTime = details.seekTime)],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, data.tracks.length > 1 || !action.endsWith('track') ? handler : null);
      } catch {
        // A browser that does not know an action says so by throwing; the others still work.
      }
    }
  }
}

/**
 * WordPress frames oEmbed players sandboxed (scripts only: no new tabs) and tells them a secret in
 * the address (`#?secret=…`); its page then opens a link the frame names in a message with that
 * secret, when the link is on the frame's own site (wp-embed's "link" message). So Donate and the
 * names still lead to the fundraiser there, in the reader's tab.
 */
function openLinksThroughWordPress() {
  const secret = /[#&]\?secret=([A-Za-z0-9]+)/.exec(location.hash)?.[1];
  if (!secret || window.parent === window) return;
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented) return;
    event.preventDefault();
    window.parent.postMessage({ message: 'link', value: link.href, secret }, '*');
  });
}

if (data) {
  startPlayer(data);
  openLinksThroughWordPress();
  report('view');
}
