import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useId, useMemo, useState } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import type { LibraryAlbumDetail, LibraryTrack, PlayerTrack } from '../../../shared/answers/library';
import { formatPlaybackTime, isoDuration } from '../../../shared/time';
import { ApiError } from '../../api/errors';
import { libraryAlbumQueryOptions } from '../../api/library';
import { usePageTitle } from '../../lib/site';
import type { SavedTrack } from '../../offline/offline-db';
import { isTrackSaved } from '../../offline/saved-track';
import { AfterPageSettled, nextTask } from '../../lib/page-settled';
import { useOnline } from '../../lib/use-online';
import { playTracksFrom } from '../../player/player-dock';
import { playerControls, usePlayerStore } from '../../player/player-store';
import { Alert } from '../../ui/alert';
import { NotFound } from '../../ui/not-found';
import { PlayButton } from '../../ui/play-button';
import { Spinner } from '../../ui/spinner';
import { AlbumCover } from './album-cover';
import { albumBackPath, albumTitle } from '../../../shared/album-links';
import { NetworkLink } from '../../ui/needs-network';
import './music.css';
import { LoadFailure } from '../../ui/offline-notice';
import { DownloadAsButton } from '../../ui/download-chooser';
import { albumTarget, trackTarget } from '../../ui/download-formats-api';
import { useDownloadPreparation } from '../../ui/download-preparation';
import { DownloadStatus } from '../../ui/download-status';
import { TrackDownloadButton } from '../../ui/track-download-button';

// The offline store (Dexie), the save controls and their dialog load once the page has settled:
// the cover, the names and the tracks are drawn first, without them (issue 24). Until the store
// is read the page knows of nothing saved, and shows no save controls. The store's library runs
// in a turn of its own, then the controls' code: together they were the album's longest task
// (about 115 ms under Lighthouse's 4× slowdown).
const loadOffline = () =>
  import('../../offline/offline-db').then(nextTask).then(() => import('../../offline/album-offline'));
const SavedTracksReader = lazy(() => loadOffline().then((m) => ({ default: m.SavedTracksReader })));
const SaveAlbumControl = lazy(() => loadOffline().then((m) => ({ default: m.SaveAlbumControl })));
const TrackSaveButton = lazy(() => loadOffline().then((m) => ({ default: m.TrackSaveButton })));

/** While a track is being processed the page looks again this often, so it turns playable by itself. */
const PROCESSING_REFRESH_MS = 5000;

/** The album page, /music/album/{projectSlug} (spec part 1 section 2, 'Your music'). */
export function AlbumPage() {
  const { projectSlug = '' } = useParams();
  const [searchParams] = useSearchParams();
  const backPath = albumBackPath(searchParams);
  const query = useQuery({
    ...libraryAlbumQueryOptions(projectSlug),
    refetchInterval: (current) =>
      current.state.data?.tracks.some((track) => track.status === 'processing') ? PROCESSING_REFRESH_MS : false,
  });
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  usePageTitle(query.data ? albumTitle(query.data) : notFound ? 'Album not found' : 'Album');

  // An album page bookmarked before its fundraiser was renamed moves to the current address.
  if (query.data && query.data.projectSlug !== projectSlug) {
    const search = searchParams.toString();
    return (
      <Navigate
        to={`/music/album/${encodeURIComponent(query.data.projectSlug)}${search ? `?${search}` : ''}`}
        replace
      />
    );
  }
  if (query.isPending) return <Spinner label="Loading album" />;
  if (notFound) return <AlbumNotFound backPath={backPath} />;
  if (query.isError) {
    return (
      <div className="page narrow stack">
        <BackLink to={backPath} />
        <LoadFailure error={query.error} retry={query.refetch}>
          <Alert tone="error">Something went wrong! Unable to load this album. Please try again later.</Alert>
        </LoadFailure>
      </div>
    );
  }
  // Keyed: another album's page starts from nothing read of the store, not this one's tracks.
  return <AlbumDetail key={query.data.projectId} album={query.data} backPath={backPath} />;
}

function AlbumNotFound({ backPath }: { backPath: string }) {
  return (
    <NotFound title="Album not found" links={[{ to: backPath, label: 'Back to Your music' }]}>
      This album isn't in your music. Albums appear here once you donate to their fundraiser, or when they belong to one
      of your own fundraisers.
    </NotFound>
  );
}

function BackLink({ to }: { to: string }) {
  return (
    <p className="album-back">
      <Link to={to}>
        <span aria-hidden="true">← </span>Your music
      </Link>
    </p>
  );
}

function AlbumDetail({ album, backPath }: { album: LibraryAlbumDetail; backPath: string }) {
  const title = albumTitle(album);
  // With no network the store says which tracks play at all: read at once.
  const online = useOnline();
  const [savedTracks, setSavedTracks] = useState<Map<number, SavedTrack>>();
  // Legacy albums are one uploaded zip: they download only as it was uploaded.
  const formats = album.tracksZipLink && !album.hasV1Tracks;
  const downloadTarget = useMemo(
    () => albumTarget({ id: album.projectId, name: title }, { via: 'library' }),
    [album.projectId, title],
  );
  const download = useDownloadPreparation(downloadTarget);
  return (
    <div className="page stack album-page">
      <AfterPageSettled now={!online}>
        <Suspense fallback={null}>
          <SavedTracksReader projectId={album.projectId} onRead={setSavedTracks} />
        </Suspense>
      </AfterPageSettled>
      <BackLink to={backPath} />
      <div className="album-hero">
        <AlbumCover className="album-page-cover" src={album.image} alt={`Album cover of ${title}`} eager />
        <div className="album-summary">
          <h1>{title}</h1>
          <p className="album-artist">
            by{' '}
            {album.artistSlug ? (
              <Link to={`/artists/${encodeURIComponent(album.artistSlug)}`}>{album.artistName}</Link>
            ) : (
              album.artistName
            )}
          </p>
          {album.fundraiserDeleted && <p className="album-note">This fundraiser has ended.</p>}
          <div className="actions">
            {/* A deleted fundraiser's page is gone; its music stays with those who bought it. */}
            {!album.fundraiserDeleted && (
              <Link className="button button-secondary" to={`/projects/${encodeURIComponent(album.projectSlug)}`}>
                View fundraiser
              </Link>
            )}
            {album.tracksZipLink && (
              // A plain link: the browser saves the zip as it streams, nothing is held in the page.
              <NetworkLink
                action="download the songs"
                className="button button-primary"
                href={album.tracksZipLink}
                download
              >
                Download songs
              </NetworkLink>
            )}
            {formats && <DownloadAsButton target={downloadTarget} onChoose={download.choose} />}
          </div>
          {formats && <DownloadStatus target={downloadTarget} download={download} />}
          {!album.hasV1Tracks && savedTracks && (
            <Suspense fallback={null}>
              <SaveAlbumControl album={album} savedTracks={savedTracks} />
            </Suspense>
          )}
        </div>
      </div>
      {album.hasV1Tracks ? <LegacyTracks album={album} /> : <TrackTable album={album} savedTracks={savedTracks} />}
    </div>
  );
}

/** Legacy v1 albums are one uploaded zip: their tracks are names, to download but not to stream. */
function LegacyTracks({ album }: { album: LibraryAlbumDetail }) {
  const headingId = useId();
  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Tracks</h2>
      <Alert tone="info">
        <p>
          These tracks are not yet available for streaming.{' '}
          {album.tracksZipLink
            ? 'Use Download songs to listen to them.'
            : 'The download will be here as soon as the album is ready.'}
        </p>
      </Alert>
      {album.tracks.length > 0 && (
        <ol className="album-legacy-tracks">
          {album.tracks.map((track) => (
            <li key={track.id}>{track.name}</li>
          ))}
        </ol>
      )}
    </section>
  );
}

/**
 * The tracks the player can play, as the player takes them: those with a stream and, with no
 * network, those saved on this device (the service worker answers their stream URLs).
 */
function toPlayerTracks(album: LibraryAlbumDetail, playable: (track: LibraryTrack) => boolean): PlayerTrack[] {
  return album.tracks
    .flatMap((track) => (track.src && playable(track) ? [{ ...track, src: track.src }] : []))
    .map((track, index) => ({
      src: track.src,
      name: track.name,
      index,
      artistName: album.artistName,
      projectName: albumTitle(album),
      projectSlug: album.projectSlug,
      albumCoverSrc: album.image,
      trackId: track.id,
      durationSeconds: track.durationSeconds,
      loudnessLufs: track.loudnessLufs,
    }));
}

type TrackTableProps = {
  album: LibraryAlbumDetail;
  savedTracks: Map<number, SavedTrack> | undefined;
};

function TrackTable({ album, savedTracks }: TrackTableProps) {
  const headingId = useId();
  const online = useOnline();
  const isSaved = (track: LibraryTrack) => isTrackSaved(savedTracks?.get(track.id));
  const playerTracks = toPlayerTracks(album, (track) => online || isSaved(track));
  const current = usePlayerStore((state) => state.tracklist[state.index]);
  // Playing in another tab shows here as paused: this page's button would take the sound over.
  const playing = usePlayerStore((state) => state.playing && state.playsHere);
  const status = usePlayerStore((state) => state.status);
  const albumSeconds = useMemo(() => album.tracks.map((track) => track.durationSeconds), [album.tracks]);

  if (album.tracks.length === 0) {
    return (
      <section className="stack" aria-labelledby={headingId}>
        <h2 id={headingId}>Tracks</h2>
        <p className="empty-state">This album has no tracks yet.</p>
      </section>
    );
  }

  return (
    <section className="stack" aria-labelledby={headingId}>
      <h2 id={headingId}>Tracks</h2>
      <div className="album-tracks-frame">
        <table className="album-tracks album-tracks-with-downloads">
          <thead>
            <tr>
              <th scope="col" className="album-track-play">
                <span className="visually-hidden">Play</span>
              </th>
              <th scope="col" className="album-track-number">
                #
              </th>
              <th scope="col" className="album-track-title">
                Title
              </th>
              <th scope="col" className="number">
                Length
              </th>
              <th scope="col" className="album-track-offline">
                <span className="visually-hidden">Save for offline or download</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {album.tracks.map((track) => {
              const playerIndex = playerTracks.findIndex((item) => item.trackId === track.id);
              const isCurrent = playerIndex >= 0 && current?.trackId === track.id;
              return (
                <TrackRow
                  key={track.id}
                  track={track}
                  fundraiserId={album.projectId}
                  albumSeconds={albumSeconds}
                  isCurrent={isCurrent}
                  isPlaying={isCurrent && playing}
                  failedToPlay={isCurrent && status === 'error'}
                  notOnDevice={!online && !isSaved(track)}
                  saveButton={
                    savedTracks && (
                      <Suspense fallback={null}>
                        <TrackSaveButton album={album} track={track} saved={savedTracks.get(track.id)} />
                      </Suspense>
                    )
                  }
                  onPlay={
                    playerIndex < 0
                      ? undefined
                      : // Your music is an account's: its player, started here if the click beat it.
                        () => (isCurrent ? playerControls.toggle() : playTracksFrom(playerTracks, playerIndex, true))
                  }
                />
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

type TrackRowProps = {
  track: LibraryTrack;
  fundraiserId: number;
  albumSeconds: readonly (number | null)[];
  isCurrent: boolean;
  isPlaying: boolean;
  failedToPlay: boolean;
  /** No network, and this track is not saved on the device. */
  notOnDevice: boolean;
  saveButton: ReactNode;
  /** Absent for a track that has no stream yet (or none reachable). */
  onPlay: (() => void) | undefined;
};

function TrackRow({
  track,
  fundraiserId,
  albumSeconds,
  isCurrent,
  isPlaying,
  failedToPlay,
  notOnDevice,
  saveButton,
  onPlay,
}: TrackRowProps) {
  const seconds = track.durationSeconds;
  const downloadTarget = useMemo(
    () => trackTarget({ id: track.id, name: track.name }, fundraiserId),
    [track.id, track.name, fundraiserId],
  );
  const download = useDownloadPreparation(downloadTarget);
  // Only a track that was processed is offered in formats: one that failed has nothing to make them from.
  const downloadable = track.status === 'ready' && Boolean(track.src);
  return (
    <tr className={isCurrent ? 'album-track-current' : undefined} aria-current={isCurrent ? 'true' : undefined}>
      <td className="album-track-play">
        {onPlay && <PlayButton playing={isPlaying} label={track.name} onClick={onPlay} />}
      </td>
      <td className="album-track-number">{track.index + 1}</td>
      <td>
        <span className="album-track-name">{track.name}</span>
        {isPlaying && <span className="visually-hidden"> (now playing)</span>}
        <TrackNote track={track} failedToPlay={failedToPlay} notOnDevice={notOnDevice} />
        {downloadable && <DownloadStatus target={downloadTarget} download={download} compact />}
      </td>
      <td className="number">
        {seconds !== null && seconds > 0 && <time dateTime={isoDuration(seconds)}>{formatPlaybackTime(seconds)}</time>}
      </td>
      <td className="album-track-offline">
        <div className="download-track-cell">
          {saveButton}
          {downloadable && (
            <TrackDownloadButton
              target={downloadTarget}
              trackSeconds={seconds}
              albumSeconds={albumSeconds}
              onChoose={download.choose}
            />
          )}
        </div>
      </td>
    </tr>
  );
}

/** Why a track cannot be played (yet). */
function TrackNote({
  track,
  failedToPlay,
  notOnDevice,
}: {
  track: LibraryTrack;
  failedToPlay: boolean;
  notOnDevice: boolean;
}) {
  const note = failedToPlay
    ? 'This track could not be loaded. Please try again.'
    : notOnDevice && track.src
      ? 'Not saved on this device.'
      : track.status === 'processing'
        ? 'Processing…'
        : track.status === 'failed'
          ? 'Unavailable: this track could not be processed.'
          : !track.src
            ? 'Not yet available for streaming.'
            : null;
  if (!note) return null;
  return <span className={`album-track-note${failedToPlay || track.status === 'failed' ? ' error' : ''}`}>{note}</span>;
}
