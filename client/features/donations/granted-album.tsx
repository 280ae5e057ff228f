import { useMemo } from 'react';
import type { GrantedTrack } from '../../../shared/answers/donations';
import type { PlayerTrack } from '../../../shared/answers/library';
import { formatPlaybackTime, isoDuration } from '../../../shared/time';
import { useUser } from '../../lib/session';
import { playGrantedTracks } from '../../player/player-dock';
import { playerControls, usePlayerStore } from '../../player/player-store';
import { NetworkLink } from '../../ui/needs-network';
import { PlayButton } from '../../ui/play-button';

// A bought album for its buyer, session or not (issue 22): Listen now, the download, and the
// tracks, on the success page and the receipt's page. Each track's `src` carries a grant
// (server/access/url-grants.ts), so it plays in the site's player without an account.

export type GrantedAlbumInfo = { name: string; artistName: string; urlSlug: string; image: string | null };

/** As the player takes them; the title leads to the fundraiser (Your music needs an account). */
function toPlayerTracks(album: GrantedAlbumInfo, tracks: GrantedTrack[]): PlayerTrack[] {
  return tracks.map((track, index) => ({
    src: track.src,
    name: track.name,
    index,
    artistName: album.artistName,
    projectName: album.name,
    projectSlug: album.urlSlug,
    albumCoverSrc: album.image ?? undefined,
    trackId: track.id,
    durationSeconds: track.durationSeconds,
    albumPath: `/projects/${encodeURIComponent(album.urlSlug)}`,
  }));
}

type GrantedAlbumProps = {
  album: GrantedAlbumInfo;
  tracks: GrantedTrack[];
  /** The album's zip, for whoever holds this page. */
  downloadHref: string;
};

export function GrantedAlbum({ album, tracks, downloadHref }: GrantedAlbumProps) {
  const loggedIn = useUser() !== null;
  const playerTracks = useMemo(() => toPlayerTracks(album, tracks), [album, tracks]);
  const currentId = usePlayerStore((state) => state.tracklist[state.index]?.trackId);
  // Playing in another tab shows here as paused: this page's button would take the sound over.
  const playing = usePlayerStore((state) => state.playing && state.playsHere);
  const currentIndex = tracks.findIndex((track) => track.id === currentId);
  const play = (index: number) =>
    index === currentIndex ? playerControls.toggle() : playGrantedTracks(playerTracks, index, loggedIn);

  return (
    <div className="granted-album stack">
      <p className="actions">
        {tracks.length > 0 && (
          <button type="button" className="button button-primary" onClick={() => play(Math.max(currentIndex, 0))}>
            {currentIndex < 0 ? 'Listen now' : playing ? 'Pause' : 'Play'}
          </button>
        )}
        <NetworkLink
          action="download the songs"
          className={`button ${tracks.length > 0 ? 'button-secondary' : 'button-primary'}`}
          href={downloadHref}
          download
        >
          Download songs
        </NetworkLink>
      </p>
      {tracks.length > 0 && (
        <ol className="granted-tracks" aria-label="Tracks">
          {tracks.map((track, index) => {
            const isCurrent = index === currentIndex;
            const seconds = track.durationSeconds;
            return (
              <li key={track.id} className={isCurrent ? 'granted-track-current' : undefined}>
                <PlayButton playing={isCurrent && playing} label={track.name} onClick={() => play(index)} />
                <span className="granted-track-number" aria-hidden="true">
                  {index + 1}
                </span>
                <span className="granted-track-name" aria-current={isCurrent ? 'true' : undefined}>
                  {track.name}
                </span>
                {seconds !== null && seconds > 0 && (
                  <time className="granted-track-length" dateTime={isoDuration(seconds)}>
                    {formatPlaybackTime(seconds)}
                  </time>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
