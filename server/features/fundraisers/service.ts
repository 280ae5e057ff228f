import fs from 'node:fs/promises';
import { imageUrl, PAGE_SIZE } from '../../../shared/constants';
import { isArtistPublishable } from '../../../shared/schemas/artists';
import { formatEin, normaliseEin } from '../../../shared/schemas/charities';
import {
  type Fundraiser,
  type FundraiserMusicInput,
  fundraiserMessages as say,
  type FundraiserRef,
  type FundraiserSearchParams,
  type SaveFundraiserInput,
  type UpdateFundraiserInput,
  type UpdateFundraiserV1Input,
} from '../../../shared/schemas/fundraisers';
import { trackUrls } from '../../../shared/schemas/library';
import { serverMessages } from '../../../shared/api';
import { canStream, type StreamableAlbum, streamAccess } from '../../access/can-stream';
import { FormError, forbidden, invalid, notFound, rateLimited } from '../../errors';
import type { ShareCard } from '../../http/client-app';
import type { Deps, Session } from '../../http/context';
import { toMatchQuery } from '../../infra/full-text';
import { takeAttempt, type ThrottleRule } from '../../infra/security/throttle';
import { uniqueSlug } from '../../infra/slugs';
import type { CachePolicy } from '../../http/send-file';
import { newUploadId, renditionVersion } from '../../infra/storage/media';
import { findUpload, insertUpload } from '../../infra/storage/upload-records';
import * as queries from './queries';
import type { FundraiserRecord, FundraiserRow } from './queries';
import {
  freshPreviewTrack,
  queuePreviewProcessing,
  queueRenditionRemoval,
  queueTrackProcessing,
} from './track-processing';

// Fundraiser rules (spec part 2 sections 4 and 6; issue 4): owners and admins change a fundraiser;
// drafts are visible only to them; non-admins edit only drafts; only admins change the charity of
// a published fundraiser; publishing needs everything a fan will see.

type Owner = { userId: number; asAdmin: boolean; draftsOnly?: boolean };
const ownerOf = (session: Session): Owner => ({ userId: session.user.id, asAdmin: session.user.isAdmin });
/** The owner check of an edit: non-admins change drafts only (checked again in the write). */
const editorOf = (session: Session): Owner => ({ ...ownerOf(session), draftsOnly: true });

const canManage = (session: Session | null, row: FundraiserRow) =>
  session !== null && (session.user.isAdmin || session.user.id === row.userId);

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

/** The fundraiser JSON (spec part 2 section 3; DESIGN.md section 4), for this caller. */
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
    shareCount: row.shareCount,
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

const toRef = (row: FundraiserRow): FundraiserRef => ({ id: row.id, urlSlug: row.urlSlug ?? undefined });

const streamable = (row: FundraiserRow): StreamableAlbum => ({
  fundraiserId: row.id,
  ownerId: row.userId,
  deleted: row.deletedAt !== null,
});

const hasStreams = (record: FundraiserRecord) => record.tracks.some((track) => track.streamFile);

/**
 * The records as JSON for this caller. Audio access (server/access/can-stream.ts) is decided for
 * the whole list at once, one purchase query, and only for albums with a full track to hand out.
 */
function detailed(deps: Deps, rows: FundraiserRow[], session: Session | null): Fundraiser[] {
  const records = queries.withDetails(deps.db, rows);
  const albums = records.filter(hasStreams).map((record) => streamable(record.row));
  const mayStream = streamAccess(deps.db, session?.user ?? null, albums);
  return records.map((record) =>
    toFundraiser(record, session, { canStream: hasStreams(record) && mayStream(streamable(record.row)) }),
  );
}

function one(deps: Deps, row: FundraiserRow, session: Session | null): Fundraiser {
  return detailed(deps, [row], session)[0]!;
}

/** A draft is 404 to everyone but its owner and admins (DESIGN.md contract details). */
function visibleOrNotFound(session: Session | null, row: FundraiserRow | undefined): FundraiserRow {
  if (!row || (row.status === 'DRAFT' && !canManage(session, row))) throw notFound(say.notFound);
  return row;
}

/** The fundraiser if this caller may change it: others get 403 for a public one, 404 for a draft. */
function manageable(deps: Deps, session: Session, id: number): FundraiserRow {
  const row = visibleOrNotFound(session, queries.findFundraiserById(deps.db, id));
  if (!canManage(session, row)) throw forbidden('Only the owner of this fundraiser or an admin can change it.');
  return row;
}

/** Manageable, and editable by this caller: non-admins edit only drafts (spec part 2 section 4). */
function editable(deps: Deps, session: Session, id: number): FundraiserRow {
  const row = manageable(deps, session, id);
  if (row.status !== 'DRAFT' && !session.user.isAdmin) throw forbidden(say.onlyDraftsEditable);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Reads

export function getFundraiser(deps: Deps, session: Session | null, id: number) {
  return one(deps, visibleOrNotFound(session, queries.findFundraiserById(deps.db, id)), session);
}

export function getFundraiserBySlug(deps: Deps, session: Session | null, slug: string) {
  return one(deps, visibleOrNotFound(session, queries.findFundraiserBySlug(deps.db, slug)), session);
}

export function listUserFundraisers(deps: Deps, session: Session) {
  return detailed(deps, queries.listUserFundraisers(deps.db, session.user.id), session);
}

export function listArtistFundraisers(deps: Deps, session: Session | null, artistId: number) {
  return detailed(deps, queries.listArtistFundraisers(deps.db, artistId), session);
}

/** The admins' featured list; until they choose one, the newest published fundraisers. */
export function listFeatured(deps: Deps, session: Session | null) {
  const featured = queries.listFeatured(deps.db);
  const rows = featured.length ? featured : queries.recentFundraisers(deps.db, {}, 8, 0).results;
  return detailed(deps, rows, session);
}

export function searchFundraisers(deps: Deps, session: Session | null, params: FundraiserSearchParams) {
  const offset = params.page * params.pageSize;
  const charityEin = params.charityEin === undefined ? undefined : normaliseEin(params.charityEin);
  // An EIN that cannot be one, or a term with no words at all, is still a search: one that matches nothing.
  if (charityEin === null) return { results: [], totalCount: 0 };
  const match = toMatchQuery(params.searchTerm);
  if (params.searchTerm !== '' && match === null) return { results: [], totalCount: 0 };
  const filters = { genre: params.genre, charityEin };
  const found = match
    ? queries.searchFundraisers(deps.db, match, filters, params.pageSize, offset)
    : queries.recentFundraisers(deps.db, filters, params.pageSize, offset);
  return { results: detailed(deps, found.results, session), totalCount: found.totalCount };
}

/** The donor list of the manage page: owner and admins only. */
export function listTransactions(deps: Deps, session: Session, id: number, page: number, pageSize = PAGE_SIZE) {
  const row = manageable(deps, session, id);
  const found = queries.listDonations(deps.db, row.id, pageSize, page * pageSize);
  return {
    results: found.results.map((donation) => ({
      name: donation.name,
      email: donation.email,
      amountCents: donation.amountCents,
      tipCents: donation.tipCents,
      createdAt: donation.createdAt.toISOString(),
      updatedAt: donation.updatedAt.toISOString(),
    })),
    totalCount: found.totalCount,
  };
}

export const noPreviewMessage = 'This fundraiser has no preview.';

/**
 * GET /api/fundraisers/{id}/preview, for a caller who may see the fundraiser: the preview track's
 * streaming rendition once processed, the original upload until then. `requested` is the URL's
 * `?v=`; only a match with the current rendition may be cached as immutable.
 */
export function previewTrackFile(
  deps: Deps,
  session: Session | null,
  id: number,
  requested?: string,
): CachePolicy & { path: string; format: 'wav' | 'mp3'; version: string } {
  const row = visibleOrNotFound(session, queries.findFundraiserById(deps.db, id));
  // A draft's preview is for its owner and admins: no cache may keep it.
  const cache = row.status === 'PUBLISHED' ? 'public' : 'none';
  if (row.previewTrackStatus === 'ready' && row.previewTrackStreamFile) {
    const version = renditionVersion(row.previewTrackStreamFile);
    const path = deps.media.streamFile(row.previewTrackStreamFile);
    return { path, format: 'mp3', version, cache, immutable: requested === version };
  }
  const upload = row.previewTrackUploadId ? findUpload(deps.db, row.previewTrackUploadId) : undefined;
  if (!upload || (upload.format !== 'wav' && upload.format !== 'mp3')) throw notFound(noPreviewMessage);
  return {
    path: deps.media.trackFile(upload.id, upload.format),
    format: upload.format,
    version: upload.id,
    cache,
    immutable: false,
  };
}

/** A name safe in any file system and zip tool: no separators, control or reserved characters. */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100);
  return cleaned || fallback;
}

export type AlbumDownload =
  | { kind: 'zip'; fileName: string; path: string; version: string }
  | { kind: 'tracks'; fileName: string; entries: AlbumZipEntry[] };

/** One original in the album zip, with what fs.stat said a moment ago (the zip's size is known up front). */
export type AlbumZipEntry = { path: string; name: string; size: number; mtime: Date };

export const albumFilesMissingMessage = "Some of this album's files are missing. Please contact us.";

/**
 * GET /api/fundraisers/{id}/download (the admins' 'Download tracks', Your music's 'Download songs'):
 * the album as one zip, each track's original upload named "NN - Track name.ext" in album order
 * (DESIGN.md contract details). A legacy v1 fundraiser answers the zip that was uploaded. Whoever
 * may hear the full tracks may take them home (canStream: owner, admins and buyers; once the
 * fundraiser is deleted, buyers and admins only). Every original must be on disk before the first
 * byte leaves: a zip that breaks off halfway looks like a network fault to the buyer, while a 404
 * says what is wrong (and the log tells us).
 */
export async function albumDownload(deps: Deps, session: Session, id: number): Promise<AlbumDownload> {
  // A deleted fundraiser's music stays its buyers' (server/access/can-stream.ts); to everyone
  // else the fundraiser is gone.
  const row = visibleOrNotFound(session, queries.findFundraiserIncludingDeleted(deps.db, id));
  if (!canStream(deps.db, session.user, streamable(row))) {
    if (row.deletedAt) throw notFound(say.notFound);
    throw forbidden('Only those who donated to this fundraiser can download its music.');
  }
  const fileName = `${safeFileName(row.name, 'album')}.zip`;
  if (row.hasV1Tracks) {
    if (!row.tracksZipUploadId) throw notFound('This fundraiser has no album zip yet.');
    const upload = row.tracksZipUploadId;
    return { kind: 'zip', fileName, path: deps.media.zipFile(upload), version: upload };
  }
  const tracks = queries.listTracks(deps.db, [row.id]);
  const listed = tracks.flatMap((track, index) => {
    const upload = track.uploadId ? findUpload(deps.db, track.uploadId) : undefined;
    if (!upload || (upload.format !== 'wav' && upload.format !== 'mp3')) return [];
    const number = String(index + 1).padStart(2, '0');
    return [
      {
        path: deps.media.trackFile(upload.id, upload.format),
        name: `${number} - ${safeFileName(track.name, `Track ${number}`)}.${upload.format}`,
      },
    ];
  });
  if (listed.length === 0) throw notFound('This fundraiser has no tracks to download yet.');
  const checked = await Promise.all(
    listed.map(async (entry) => ({ entry, stats: await fs.stat(entry.path).catch(() => null) })),
  );
  const entries = checked.flatMap(({ entry, stats }) =>
    stats?.isFile() ? [{ ...entry, size: stats.size, mtime: stats.mtime }] : [],
  );
  if (entries.length < listed.length) {
    const missing = checked.filter(({ stats }) => !stats?.isFile()).map(({ entry }) => entry.path);
    deps.logger.error({ fundraiserId: row.id, missing }, 'album download: track originals missing on disk');
    throw notFound(albumFilesMissingMessage);
  }
  return { kind: 'tracks', fileName, entries };
}

// ---------------------------------------------------------------------------------------------
// Writes

/** The charity by EIN from the directory (search results from Every.org are cached there too). */
function chosenCharity(deps: Deps, ein: string | undefined) {
  const digits = ein ? normaliseEin(ein) : null;
  if (!ein) throw new FormError([{ field: 'charityEin', message: say.nonprofitRequired }]);
  const charity = digits ? queries.findCharity(deps.db, digits) : undefined;
  if (!charity) throw new FormError([{ field: 'charityEin', message: say.nonprofitInvalid }]);
  return { charityEin: charity.ein, charityName: charity.name, charityWebsite: charity.websiteUrl };
}

/** A charity change on a published fundraiser is for admins only (spec part 2 section 4). */
function checkCharityChange(session: Session, row: FundraiserRow, nextEin: string) {
  if (row.status === 'PUBLISHED' && nextEin !== row.charityEin && !session.user.isAdmin) {
    throw forbidden(say.onlyAdminsChangeCharity);
  }
}

/** The slug follows the name while the fundraiser is a draft; once public, links must last. */
function slugFor(deps: Deps, row: Pick<FundraiserRow, 'id' | 'status' | 'urlSlug' | 'name'> | null, name: string) {
  if (row && (row.status !== 'DRAFT' || row.name === name) && row.urlSlug) return row.urlSlug;
  return uniqueSlug(name, (slug) => queries.isSlugTaken(deps.db, slug, row?.id));
}

/** POST /api/fundraisers/save: creates the draft (no id) or updates it. */
export function saveFundraiser(deps: Deps, session: Session, input: SaveFundraiserInput): FundraiserRef {
  if (!input.artistId || !input.charityEin) throw invalid(say.chooseArtistAndCharity);
  const artist = queries.findLiveArtist(deps.db, input.artistId);
  const existing = input.id === undefined ? null : editable(deps, session, input.id);
  const artistOwner = existing ? existing.userId : session.user.id;
  // The artist must be the fundraiser owner's own (an admin editing keeps the owner's artists).
  if (!artist || artist.userId !== artistOwner) {
    throw new FormError([{ field: 'artistId', message: 'Please choose one of your artists.' }]);
  }
  const charity = chosenCharity(deps, input.charityEin);
  if (existing) checkCharityChange(session, existing, charity.charityEin);
  const details =
    input.name === undefined
      ? {}
      : {
          name: input.name,
          description: input.description ?? '',
          genre: input.genre ?? '',
          genreSecondary: input.genreSecondary ?? null,
          youtubeLink: input.youtubeLink ?? '',
          vimeoLink: input.vimeoLink ?? '',
        };
  const values = {
    artistId: artist.id,
    ...charity,
    minimumDonationCents: input.donationMinimumCents,
    donationGoalCents: input.fundraisingGoalCents,
    ...details,
  };
  return deps.db.transaction((tx) => {
    const txDeps = { ...deps, db: tx };
    if (!existing) {
      const urlSlug = details.name ? slugFor(txDeps, null, details.name) : null;
      return toRef(queries.insertFundraiser(tx, { userId: session.user.id, ...values, urlSlug }));
    }
    const urlSlug = details.name ? slugFor(txDeps, existing, details.name) : existing.urlSlug;
    const updated = queries.updateOwnFundraiser(tx, existing.id, editorOf(session), { ...values, urlSlug });
    if (!updated) throw notFound(say.notFound);
    return toRef(updated);
  });
}

type MusicInput = Pick<FundraiserMusicInput, 'albumCover' | 'previewTrackName' | 'previewTrackFile' | 'trackList'>;

/**
 * Upload ids a fundraiser may take: the caller's own uploads of the right kind, or ones this
 * fundraiser already has (an admin resubmitting the owner's files). Anyone else's are refused.
 */
function checkMusicUploads(deps: Deps, session: Session, row: FundraiserRow | null, input: MusicInput) {
  const current = new Map<string, 'image' | 'track'>();
  if (row) {
    if (row.albumCoverId) current.set(row.albumCoverId, 'image');
    if (row.previewTrackUploadId) current.set(row.previewTrackUploadId, 'track');
    for (const track of queries.listTracks(deps.db, [row.id])) if (track.uploadId) current.set(track.uploadId, 'track');
  }
  const errors: { field: string; message: string }[] = [];
  const check = (id: string, kind: 'image' | 'track', field: string, message: string) => {
    if (current.get(id) === kind) return;
    const upload = findUpload(deps.db, id);
    if (!upload || upload.userId !== session.user.id || upload.kind !== kind) errors.push({ field, message });
  };
  check(input.albumCover, 'image', 'albumCover', 'Please upload the album cover again.');
  check(input.previewTrackFile, 'track', 'previewTrackFile', 'Please upload the preview track again.');
  input.trackList.forEach((track, index) =>
    check(track.file, 'track', `trackList.${index}.file`, 'Please upload this track again.'),
  );
  if (errors.length) throw new FormError(errors);
}

/** The track list of a streaming form: each track an uploaded file (an existing one keeps its id). */
function streamingTracks(input: MusicInput) {
  return input.trackList.map((track) => ({ id: track.id, name: track.name, uploadId: track.file }));
}

function musicValues(input: MusicInput) {
  return {
    albumCoverId: input.albumCover,
    previewTrackName: input.previewTrackName,
    previewTrackUploadId: input.previewTrackFile,
  };
}

type Db = Deps['db'];

/**
 * Writes a fundraiser's music. A new preview track starts processing afresh (and the old one's
 * renditions go); new track uploads are processed and the renditions of removed tracks go, all
 * queued in this transaction so that no change is left without its job (issue 5).
 */
function writeMusic(
  tx: Db,
  id: number,
  owner: Owner,
  values: Partial<FundraiserRow>,
  tracks: Parameters<typeof queries.replaceTracks>[2],
) {
  const before = queries.findFundraiserById(tx, id);
  if (!before) return undefined;
  const newPreview =
    values.previewTrackUploadId !== undefined && values.previewTrackUploadId !== before.previewTrackUploadId;
  const updated = queries.updateOwnFundraiser(tx, id, owner, newPreview ? { ...values, ...freshPreviewTrack } : values);
  if (!updated) return undefined;
  if (newPreview) {
    queueRenditionRemoval(tx, {
      streams: [before.previewTrackStreamFile],
      previews: [before.previewTrackPreviewFile],
    });
    if (updated.previewTrackUploadId) queuePreviewProcessing(tx, id, updated.previewTrackUploadId);
  }
  const { added, removed } = queries.replaceTracks(tx, id, tracks);
  queueTrackProcessing(
    tx,
    added.filter((track) => track.uploadId).map((track) => track.id),
  );
  queueRenditionRemoval(tx, {
    streams: removed.map((track) => track.streamFile),
    previews: removed.map((track) => track.previewFile),
  });
  return updated;
}

/** PATCH /api/fundraisers/music: the wizard's last step, on the draft it saved. */
export function saveMusic(deps: Deps, session: Session, input: FundraiserMusicInput): FundraiserRef {
  const row = editable(deps, session, input.id);
  if (row.hasV1Tracks) throw invalid('This fundraiser uses the legacy album form. Please edit it instead.');
  checkMusicUploads(deps, session, row, input);
  return deps.db.transaction((tx) => {
    const updated = writeMusic(tx, row.id, editorOf(session), musicValues(input), streamingTracks(input));
    if (!updated) throw notFound(say.notFound);
    return toRef(updated);
  });
}

function detailValues(input: Omit<UpdateFundraiserInput, keyof MusicInput> | UpdateFundraiserV1Input) {
  return {
    name: input.name,
    description: input.description,
    genre: input.genre,
    genreSecondary: input.genreSecondary ?? null,
    youtubeLink: input.youtubeLink,
    vimeoLink: input.vimeoLink,
    minimumDonationCents: input.donationMinimumCents,
    donationGoalCents: input.fundraisingGoalCents,
  };
}

/**
 * PATCH /api/fundraisers/{id}/update: the streaming edit form. For a legacy v1 fundraiser this is
 * the admins' 'Upgrade to streaming': the uploaded tracks replace the zip.
 */
export function updateFundraiser(deps: Deps, session: Session, id: number, input: UpdateFundraiserInput) {
  const row = editable(deps, session, id);
  if (row.hasV1Tracks && !session.user.isAdmin) {
    throw forbidden('Only admins can upgrade a legacy fundraiser to streaming.');
  }
  const charity = chosenCharity(deps, input.charityEin);
  checkCharityChange(session, row, charity.charityEin);
  checkMusicUploads(deps, session, row, input);
  return deps.db.transaction((tx) => {
    const urlSlug = slugFor({ ...deps, db: tx }, row, input.name);
    const updated = writeMusic(
      tx,
      row.id,
      editorOf(session),
      { ...detailValues(input), ...charity, ...musicValues(input), hasV1Tracks: false, urlSlug },
      streamingTracks(input),
    );
    if (!updated) throw notFound(say.notFound);
    return toRef(updated);
  });
}

/** An album zip is up to 1000 MB of disk: a few tries an hour is plenty for fixing a legacy album. */
const albumZipsByUser: ThrottleRule = { bucket: 'album-zip-user', limit: 20, windowMs: 60 * 60 * 1000 };

/**
 * Before updatev1 reads its (up to 1000 MB) body: the caller must be allowed to edit this legacy
 * fundraiser, and not be sending album after album.
 */
export function checkLegacyEdit(deps: Deps, session: Session, id: number) {
  const row = editable(deps, session, id);
  if (!row.hasV1Tracks) throw invalid('This fundraiser streams its tracks. Please use the streaming form.');
  if (takeAttempt(deps.db, albumZipsByUser, String(session.user.id)) === null) {
    throw rateLimited(serverMessages.rateLimited);
  }
}

/** What updatev1 received: its fields, and the album zip already streamed to a temporary file. */
export type AlbumZipFile = { tempFile: string; originalName: string; bytes: number };

/**
 * PATCH /api/fundraisers/{id}/updatev1: the legacy form. Track names only; the music is one zip,
 * required unless the fundraiser has one already. The caller removes `zip.tempFile` afterwards.
 */
export async function updateFundraiserV1(
  deps: Deps,
  session: Session,
  id: number,
  input: UpdateFundraiserV1Input,
  zip: AlbumZipFile | undefined,
) {
  const row = editable(deps, session, id);
  if (!row.hasV1Tracks) throw invalid('This fundraiser streams its tracks. Please use the streaming form.');
  if (!zip && !row.tracksZipUploadId) throw new FormError([{ field: 'albumZip', message: say.albumZipRequired }]);
  const charity = chosenCharity(deps, input.charityEin);
  checkCharityChange(session, row, charity.charityEin);
  const music = { albumCover: input.albumCover, previewTrackFile: input.previewTrackFile, trackList: [] };
  checkMusicUploads(deps, session, row, { ...music, previewTrackName: input.previewTrackName });

  let zipUploadId = row.tracksZipUploadId;
  if (zip) {
    zipUploadId = newUploadId();
    await fs.rename(zip.tempFile, deps.media.zipFile(zipUploadId));
    insertUpload(deps.db, {
      id: zipUploadId,
      userId: session.user.id,
      kind: 'zip',
      format: 'zip',
      originalName: zip.originalName,
      bytes: zip.bytes,
    });
  }
  return deps.db.transaction((tx) => {
    const updated = writeMusic(
      tx,
      row.id,
      editorOf(session),
      {
        ...detailValues(input),
        ...charity,
        albumCoverId: input.albumCover,
        previewTrackName: input.previewTrackName,
        previewTrackUploadId: input.previewTrackFile,
        tracksZipUploadId: zipUploadId,
        urlSlug: slugFor({ ...deps, db: tx }, row, input.name),
      },
      input.trackList.map((name) => ({ name, uploadId: null, status: 'ready' as const })),
    );
    if (!updated) throw notFound(say.notFound);
    return toRef(updated);
  });
}

/**
 * PATCH /api/fundraisers/{id}/publish. A DRAFT artist is published with it when asked (the
 * dialog's 'Yes, publish both!'), in one transaction, and only if the artist is complete.
 */
export function publishFundraiser(deps: Deps, session: Session, id: number, publishArtist: boolean) {
  const row = manageable(deps, session, id);
  if (row.status === 'PUBLISHED') return one(deps, row, session);
  const [record] = queries.withDetails(deps.db, [row]);
  if (!record || !isPublishable(record)) throw invalid(say.notPublishable);
  const artist = queries.findLiveArtist(deps.db, row.artistId);
  if (!artist) throw invalid(say.finishArtistFirst);
  if (artist.status === 'DRAFT') {
    if (!isArtistPublishable(artist)) throw invalid(say.finishArtistFirst);
    if (!publishArtist) throw invalid(say.artistMustBePublished);
  }
  const published = deps.db.transaction((tx) => {
    const now = new Date();
    if (artist.status === 'DRAFT') queries.publishArtist(tx, artist.id, now);
    const updated = queries.updateOwnFundraiser(tx, row.id, ownerOf(session), {
      status: 'PUBLISHED',
      publishedAt: now,
      // A draft that never got a name has no slug; publishing needs a name, so it has one now.
      urlSlug: row.urlSlug ?? slugFor({ ...deps, db: tx }, row, row.name),
    });
    if (!updated) throw notFound(say.notFound);
    return updated;
  });
  return one(deps, published, session);
}

/** Soft delete: no more donations, gone from every list; the donations made stay on record. */
export function deleteFundraiser(deps: Deps, session: Session, id: number) {
  const row = manageable(deps, session, id);
  const deleted = queries.updateOwnFundraiser(deps.db, row.id, ownerOf(session), { deletedAt: new Date() });
  if (!deleted) throw notFound(say.notFound);
}

/** The link preview of /projects/{slugOrId}: public fundraisers only. */
export function fundraiserShareCard(deps: Deps, slugOrId: string): ShareCard | null {
  const row = /^\d+$/.test(slugOrId)
    ? queries.findFundraiserById(deps.db, Number(slugOrId))
    : queries.findFundraiserBySlug(deps.db, slugOrId);
  if (!row || row.status !== 'PUBLISHED') return null;
  const artist = queries.findLiveArtist(deps.db, row.artistId);
  return {
    title: artist ? `${row.name} by ${artist.name}` : row.name,
    description: `${row.description} — Donate to ${row.charityName} and get the music.`,
    imagePath: row.albumCoverId ? imageUrl(row.albumCoverId, 1200, 'jpg') : undefined,
    path: `/projects/${row.urlSlug ?? row.id}`,
  };
}
