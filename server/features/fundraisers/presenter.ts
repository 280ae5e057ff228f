import { imageUrl } from '../../../shared/constants';
import { isArtistPublishable } from '../../../shared/schemas/artists';
import { formatEin } from '../../../shared/ein';
import type { Fundraiser, FundraiserRef } from '../../../shared/answers/fundraisers';
import { trackUrls } from '../../../shared/answers/library';
import { canStream, type StreamableAlbum, streamAccess } from '../../access/can-stream';
import type { Db } from '../../db/client';
import { publicCache } from '../../db/cache';
import type { Deps, Session } from '../../deps';
import { SerializedJson } from '../../infra/serialized-json';
import { renditionVersion } from '../../infra/storage/media';
import { type ArtistSummary, artistSummaries } from '../artists/service';
import * as journal from '../journal/service';
import { canManage, visibleOrNotFound } from './permissions';
import * as queries from './queries';
import type { FundraiserRow, TrackRow } from './queries';

// The fundraiser JSON (spec part 2 section 3; DESIGN.md section 4), for the caller who asks:
// editors see upload ids and processing errors, and only those who may stream get full-track URLs.

/** A fundraiser with what its JSON needs from other tables. */
export type FundraiserRecord = {
  row: FundraiserRow;
  artist: ArtistSummary;
  tracks: TrackRow[];
  totalRaised: number;
  donationCount: number;
  /** Completed shares: imported ones (the row's) and those counted since (issue 28). */
  shareCount: number;
};

/** Rows → records with artist, tracks and totals, in three queries whatever the number of rows. */
export function loadRecords(db: Db, rows: FundraiserRow[]): FundraiserRecord[] {
  const ids = rows.map((row) => row.id);
  const artistById = artistSummaries(
    db,
    rows.map((row) => row.artistId),
  );
  const tracksById = new Map<number, TrackRow[]>();
  for (const track of queries.listTracks(db, ids)) {
    tracksById.set(track.fundraiserId, [...(tracksById.get(track.fundraiserId) ?? []), track]);
  }
  const counts = queries.donationCounts(db, ids);
  const shares = queries.sharesCounted(db, ids);
  const raised = journal.raisedByFundraisers(db, ids);
  return rows.flatMap((row) => {
    const artist = artistById.get(row.artistId);
    if (!artist) return [];
    return [
      {
        row,
        artist,
        tracks: tracksById.get(row.id) ?? [],
        totalRaised: raised.get(row.id) ?? 0,
        donationCount: counts.get(row.id) ?? 0,
        shareCount: row.shareCount + (shares.get(row.id) ?? 0),
      },
    ];
  });
}

/** Everything a fan will see is there: publishing needs it (spec part 2 section 4). */
export function isPublishable(record: Pick<FundraiserRecord, 'row' | 'tracks'>): boolean {
  const { row, tracks } = record;
  const hasMusic = row.hasV1Tracks ? Boolean(row.tracksZipUploadId) : tracks.some((track) => track.uploadId);
  return (
    row.name.trim() !== '' &&
    row.description.trim() !== '' &&
    row.genre !== '' &&
    Boolean(row.albumCoverId) &&
    Boolean(row.previewTrackUploadId) &&
    tracks.length > 0 &&
    hasMusic
  );
}

/** What the caller may do with the fundraiser's audio, decided by server/access/can-stream.ts. */
export type AudioAccess = { canStream: boolean };

export function toFundraiser(record: FundraiserRecord, session: Session | null, access: AudioAccess): Fundraiser {
  const { row, artist, tracks } = record;
  const editor = canManage(session, row);
  return {
    id: row.id,
    userId: row.userId,
    artistId: row.artistId,
    name: row.name,
    description: row.description,
    supportedOrg: row.charityName,
    supportedOrgEin: formatEin(row.charityEin),
    supportedOrgWebsite: row.charityWebsite ?? undefined,
    minimumDonation: row.minimumDonationCents,
    donationGoal: row.donationGoalCents ?? undefined,
    genre: row.genre,
    genreSecondary: row.genreSecondary ?? undefined,
    status: row.status,
    shareCount: record.shareCount,
    image: row.albumCoverId ? imageUrl(row.albumCoverId, 400, 'jpg') : undefined,
    albumCover: row.albumCoverId ?? undefined,
    previewTrackName: row.previewTrackName || undefined,
    previewTrackFile: editor ? (row.previewTrackUploadId ?? undefined) : undefined,
    previewTrackPreview: row.previewTrackUploadId ? previewTrackUrl(row) : undefined,
    previewTrackStatus: editor && row.previewTrackUploadId ? row.previewTrackStatus : undefined,
    previewTrackError: editor ? (row.previewTrackError ?? undefined) : undefined,
    tracksList: tracks.map((track) => ({
      id: track.id,
      name: track.name,
      durationSeconds: track.durationSeconds,
      status: track.status,
      previewPath:
        track.status === 'ready' && track.previewFile
          ? trackUrls.preview(track.id, renditionVersion(track.previewFile))
          : undefined,
      file:
        access.canStream && track.status === 'ready' && track.streamFile
          ? trackUrls.stream(track.id, renditionVersion(track.streamFile))
          : undefined,
      uploadId: editor ? (track.uploadId ?? undefined) : undefined,
      error: editor ? (track.error ?? undefined) : undefined,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString(),
    publishedAt: row.publishedAt?.toISOString(),
    urlSlug: row.urlSlug ?? undefined,
    youtubeLink: row.youtubeLink || undefined,
    vimeoLink: row.vimeoLink || undefined,
    hasV1Tracks: row.hasV1Tracks,
    hasTracksZip: Boolean(row.tracksZipUploadId),
    isPublishable: isPublishable(record),
    canManage: editor,
    totalRaised: record.totalRaised,
    donationCount: record.donationCount,
    artist: {
      id: artist.id,
      urlSlug: artist.urlSlug,
      name: artist.name,
      status: artist.status,
      isPublishable: isArtistPublishable(artist),
    },
    fundraisingGoalCents: row.donationGoalCents ?? undefined,
    donationMinimumCents: row.minimumDonationCents,
    charityEin: formatEin(row.charityEin),
  };
}

/** The preview track's URL; once its rendition exists, versioned by it so it may be cached for good. */
function previewTrackUrl(row: FundraiserRow): string {
  const url = `/api/fundraisers/${row.id}/preview`;
  if (row.previewTrackStatus !== 'ready' || !row.previewTrackStreamFile) return url;
  return `${url}?v=${encodeURIComponent(renditionVersion(row.previewTrackStreamFile))}`;
}

export const toRef = (row: FundraiserRow): FundraiserRef => ({ id: row.id, urlSlug: row.urlSlug ?? undefined });

/** What can-stream needs to know of a fundraiser's album. */
export const streamable = (row: FundraiserRow): StreamableAlbum => ({
  fundraiserId: row.id,
  ownerId: row.userId,
  deleted: row.deletedAt !== null,
});

const hasStreams = (record: FundraiserRecord) => record.tracks.some((track) => track.streamFile);

/**
 * The rows as JSON for this caller. Audio access (server/access/can-stream.ts) is decided for the
 * whole list at once, one purchase query, and only for albums with a full track to hand out.
 */
export function presentFundraisers(deps: Deps, rows: FundraiserRow[], session: Session | null): Fundraiser[] {
  const records = loadRecords(deps.db, rows);
  const albums = records.filter(hasStreams).map((record) => streamable(record.row));
  const mayStream = streamAccess(deps.db, session?.user ?? null, albums);
  return records.map((record) =>
    toFundraiser(record, session, { canStream: hasStreams(record) && mayStream(streamable(record.row)) }),
  );
}

export function presentFundraiser(deps: Deps, row: FundraiserRow, session: Session | null): Fundraiser {
  return presentFundraisers(deps, [row], session)[0]!;
}

/** A fundraiser's record and its JSON as anyone may see it: what the public cache keeps. */
type PublicFundraiser = { record: FundraiserRecord; json: SerializedJson };

/** Fundraisers' pages as a visitor sees them (server/db/cache.ts): a few hundred at most. */
const publicFundraisers = publicCache<PublicFundraiser>(500);

/**
 * One fundraiser's JSON for this caller, found by `find` under the cache's `key` (its slug or id).
 * The record and its public JSON come from the cache; what depends on the caller is decided
 * here each time: its owner and admins (canManage, upload ids, errors) and those who may hear the
 * full tracks (their URLs) get JSON made for them, everyone else the public JSON as it was kept.
 */
export function presentFundraiserCached(
  deps: Deps,
  session: Session | null,
  key: string,
  find: () => FundraiserRow | undefined,
): Fundraiser | SerializedJson {
  const kept = publicFundraisers.get(deps.db, key, () => {
    const row = find();
    const record = row && loadRecords(deps.db, [row])[0];
    if (!record) return undefined;
    return { record, json: new SerializedJson(toFundraiser(record, null, { canStream: false })) };
  });
  const row = visibleOrNotFound(session, kept?.record.row);
  const { record, json } = kept!;
  const mayStream = session !== null && hasStreams(record) && canStream(deps.db, session.user, streamable(row));
  if (!canManage(session, row) && !mayStream) return json;
  return toFundraiser(record, session, { canStream: mayStream });
}

/** A list's records, its JSON as anyone may see it and how it wraps its results: what is kept. */
type PublicList<Envelope> = {
  records: FundraiserRecord[];
  json: SerializedJson;
  envelope: (results: Fundraiser[]) => Envelope;
};

/**
 * Lists of fundraisers as a visitor sees them (the home page's featured list, browse and search
 * pages, issue 24): each search and page is one entry, the oldest going first past a few hundred
 * or past 32 MB of JSON (a page holds up to 100 fundraisers with long descriptions; the records
 * beside the JSON weigh about as much again).
 */
const publicLists = publicCache<PublicList<unknown>>({
  maxEntries: 400,
  maxBytes: 32 * 1024 * 1024,
  sizeOf: (list) => list.json.text.length * 2,
});

/**
 * A list's JSON for this caller, loaded by `load` under the cache's `key` and wrapped by its
 * `envelope` ({ results, totalCount } or the bare array). The records and the public JSON come
 * from the cache; what depends on the caller is decided here each time: a caller who manages one
 * of the fundraisers or may hear one's full tracks gets JSON made for them, everyone else (every
 * visitor) the public JSON as it was kept, serialized once.
 */
export function presentListCached<Envelope>(
  deps: Deps,
  session: Session | null,
  key: string,
  load: () => { rows: FundraiserRow[]; envelope: (results: Fundraiser[]) => Envelope },
): Envelope | SerializedJson {
  const kept = publicLists.get(deps.db, key, () => {
    const { rows, envelope } = load();
    const records = loadRecords(deps.db, rows);
    const results = records.map((record) => toFundraiser(record, null, { canStream: false }));
    return { records, json: new SerializedJson(envelope(results)), envelope } as PublicList<unknown>;
  }) as PublicList<Envelope>;
  if (session === null) return kept.json;
  const albums = kept.records.filter(hasStreams).map((record) => streamable(record.row));
  const mayStream = streamAccess(deps.db, session.user, albums);
  const personal = kept.records.some(
    (record) => canManage(session, record.row) || (hasStreams(record) && mayStream(streamable(record.row))),
  );
  if (!personal) return kept.json;
  return kept.envelope(
    kept.records.map((record) =>
      toFundraiser(record, session, { canStream: hasStreams(record) && mayStream(streamable(record.row)) }),
    ),
  );
}
