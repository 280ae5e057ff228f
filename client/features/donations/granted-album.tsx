import { useMemo } from 'react';
import type { GrantedTrack } from '../../../shared/answers/donations';
import type { PlayerTrack } from '../../../shared/answers/library';
import { formatPlaybackTime, isoDuration } from '../../../shared/time';
import { useUser } from '../../lib/session';
import { playTracksFrom } from '../../player/player-dock';
import { playerControls, usePlayerStore } from '../../player/player-store';
import { NetworkLink } from '../../ui/needs-network';
import { PlayButton } from '../../ui/play-button';
import { DownloadAsButton } from '../../ui/download-chooser';
import { type AlbumAccess, albumTarget, grantIn, trackTarget } from '../../ui/download-formats-api';
import { useDownloadPreparation } from '../../ui/download-preparation';
import { DownloadStatus } from '../../ui/download-status';
import { TrackDownloadButton } from '../../ui/track-download-button';

// A bought album for its buyer, session or not (issue 22): Listen now, the download, and the
// tracks, on the success page and the receipt's page. Each track's `src` carries a grant
// (server/access/url-grants.ts), so it plays in the site's player without an account — and
// downloads, in any format (issue 27), the album under the page's own access and each track under
// its grant.

export type GrantedAlbumInfo = { id: number; name: string; artistName: string; urlSlug: string; image: string | null };

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
  /** How this page reaches the album's other formats (the receipt's link or the success page's grant); none, no formats. */
  access: AlbumAccess | null;
};

export function GrantedAlbum({ album, tracks, downloadHref, access }: GrantedAlbumProps) {
  const loggedIn = useUser() !== null;
  const playerTracks = useMemo(() => toPlayerTracks(album, tracks), [album, tracks]);
  const currentId = usePlayerStore((state) => state.tracklist[state.index]?.trackId);
  // Playing in another tab shows here as paused: this page's button would take the sound over.
  const playing = usePlayerStore((state) => state.playing && state.playsHere);
  const currentIndex = tracks.findIndex((track) => track.id === currentId);
  const play = (index: number) =>
    index === currentIndex ? playerControls.toggle() : playTracksFrom(playerTracks, index, loggedIn);
  const downloadTarget = albumTarget(album, access ?? { via: 'library' });
  const download = useDownloadPreparation(downloadTarget);
  const albumSeconds = useMemo(() => tracks.map((track) => track.durationSeconds), [tracks]);

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
        {access && <DownloadAsButton target={downloadTarget} onChoose={download.choose} />}
      </p>
      {access && <DownloadStatus target={downloadTarget} download={download} />}
      {tracks.length > 0 && (
        <ol className="granted-tracks" aria-label="Tracks">
          {tracks.map((track, index) => (
            <GrantedTrackRow
              key={track.id}
              track={track}
              index={index}
              fundraiserId={album.id}
              albumSeconds={albumSeconds}
              isCurrent={index === currentIndex}
              isPlaying={index === currentIndex && playing}
              onPlay={() => play(index)}
            />
          ))}
        </ol>
      )}
    </div>
  );
}

type GrantedTrackRowProps = {
  track: GrantedTrack;
  index: number;
  fundraiserId: number;
  albumSeconds: readonly (number | null)[];
  isCurrent: boolean;
  isPlaying: boolean;
  onPlay: () => void;
};

function GrantedTrackRow({
  track,
  index,
  fundraiserId,
  albumSeconds,
  isCurrent,
  isPlaying,
  onPlay,
}: GrantedTrackRowProps) {
  const seconds = track.durationSeconds;
  // The track's own grant (the one its stream carries) lets a guest download it as well.
  const downloadTarget = useMemo(
    () => trackTarget({ id: track.id, name: track.name }, fundraiserId, grantIn(track.src)),
    [track.id, track.name, track.src, fundraiserId],
  );
  const download = useDownloadPreparation(downloadTarget);
  return (
    <li className={isCurrent ? 'granted-track-current' : undefined}>
      <PlayButton playing={isPlaying} label={track.name} onClick={onPlay} />
      <span className="granted-track-number" aria-hidden="true">
        {index + 1}
      </span>
      <div className="granted-track-name">
        <span aria-current={isCurrent ? 'true' : undefined}>{track.name}</span>
        <DownloadStatus target={downloadTarget} download={download} compact />
      </div>
      {seconds !== null && seconds > 0 && (
        <time className="granted-track-length" dateTime={isoDuration(seconds)}>
          {formatPlaybackTime(seconds)}
        </time>
      )}
      <TrackDownloadButton
        target={downloadTarget}
        trackSeconds={seconds}
        albumSeconds={albumSeconds}
        onChoose={download.choose}
      />
    </li>
  );
}
