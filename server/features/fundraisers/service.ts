import { imageUrl, PAGE_SIZE } from '../../../shared/constants';
import { isArtistPublishable } from '../../../shared/schemas/artists';
import { adminMoneyMessages } from '../../../shared/schemas/admin-money';
import { normaliseEin } from '../../../shared/ein';
import { EMBED_FRAME, embedUrl } from '../../../shared/embed';
import {
  type FundraiserMusicInput,
  type FundraiserSearchParams,
  type SaveFundraiserInput,
  type UpdateFundraiserInput,
  type UpdateFundraiserV1Input,
} from '../../../shared/schemas/fundraisers';
import { fundraiserMessages as say } from '../../../shared/fundraiser-messages';
import { type Fundraiser, type FundraiserRef } from '../../../shared/answers/fundraisers';
import type { Db } from '../../db/client';
import type { Deps, PageInfo, Session } from '../../deps';
import { FormError, filesNoLongerAvailable, forbidden, invalid, type NamedUpload, notFound } from '../../errors';
import { toMatchQuery } from '../../infra/full-text';
import { uniqueSlug } from '../../infra/slugs';
import { savableUpload } from '../../infra/storage/upload-records';
import {
  artistSummaries,
  deletableArtist,
  findLiveArtist,
  publishArtistWith,
  removeArtist,
  removeUserArtists,
} from '../artists/service';
import { findDirectoryCharity } from '../charities/service';
import { editable, editorOf, manageable, type Owner, ownerOf } from './permissions';
import {
  isPublishable,
  loadRecords,
  presentFundraiser,
  presentFundraiserCached,
  presentFundraisers,
  presentListCached,
  toRef,
} from './presenter';
import * as journal from '../journal/service';
import * as queries from './queries';
import type { FundraiserRow } from './queries';
import {
  freshPreviewTrack,
  queuePreviewProcessing,
  queueRenditionRemoval,
  queueTrackProcessing,
} from './track-processing';

// Fundraiser reads and writes (spec part 2 sections 4 and 6; issue 4). Who may do what is in
// permissions.ts, the JSON in presenter.ts, audio files in album-media.ts and the legacy form in
// legacy-form.ts. Artists and charities are asked through their services (docs/architecture.md).

// ---------------------------------------------------------------------------------------------
// Reads

// A fundraiser's page: its JSON as anyone sees it is kept (presenter.ts), what is the caller's own is not.
export function getFundraiser(deps: Deps, session: Session | null, id: number) {
  return presentFundraiserCached(deps, session, `id:${id}`, () => queries.findFundraiserById(deps.db, id));
}

/** By its slug, or by a slug it had before a rename (the answer carries the current one). */
export function getFundraiserBySlug(deps: Deps, session: Session | null, slug: string) {
  return presentFundraiserCached(deps, session, `slug:${slug}`, () => findBySlugOrFormerSlug(deps.db, slug));
}

function findBySlugOrFormerSlug(db: Db, slug: string): FundraiserRow | undefined {
  const current = queries.findFundraiserBySlug(db, slug);
  if (current) return current;
  const formerOf = queries.findFundraiserIdBySlugHistory(db, slug);
  return formerOf === undefined ? undefined : queries.findFundraiserById(db, formerOf);
}

export function listUserFundraisers(deps: Deps, session: Session) {
  return presentFundraisers(deps, queries.listUserFundraisers(deps.db, session.user.id), session);
}

export function listArtistFundraisers(deps: Deps, session: Session | null, artistId: number) {
  return presentFundraisers(deps, queries.listArtistFundraisers(deps.db, artistId), session);
}

/** The admins' featured list; until they choose one, the newest published fundraisers. */
export function listFeatured(deps: Deps, session: Session | null) {
  return presentListCached(deps, session, 'featured', () => {
    const featured = queries.listFeatured(deps.db);
    const rows = featured.length ? featured : queries.recentFundraisers(deps.db, {}, 8, 0).results;
    return { rows, envelope: (results: Fundraiser[]) => results };
  });
}

/** PUT /api/admin/projects/featured: only published fundraisers can be shown on the home page. */
export function replaceFeatured(deps: Deps, ids: number[]) {
  deps.db.transaction((tx) => {
    for (const id of ids) {
      if (queries.findFundraiserById(tx, id)?.status !== 'PUBLISHED') {
        throw invalid(adminMoneyMessages.featuredNotPublished(id));
      }
    }
    queries.replaceFeatured(tx, ids);
  });
}

/** What a search finds, before it is presented: the rows of the page asked for, and how many in all. */
export type FoundFundraisers = { rows: FundraiserRow[]; totalCount: number; totalCountCapped?: true };

/** The search itself, uncached (its benchmark times it alone; searchFundraisers keeps its answers). */
export function findFundraisers(deps: Deps, params: FundraiserSearchParams): FoundFundraisers {
  const offset = params.page * params.pageSize;
  const charityEin = params.charityEin === undefined ? undefined : normaliseEin(params.charityEin);
  // An EIN that cannot be one, or a term with no words at all, is still a search: one that matches nothing.
  if (charityEin === null) return { rows: [], totalCount: 0 };
  const match = toMatchQuery(params.searchTerm);
  if (params.searchTerm !== '' && match === null) return { rows: [], totalCount: 0 };
  const filters = { genre: params.genre, charityEin };
  const found = match
    ? queries.searchFundraisers(deps.db, match, filters, params.pageSize, offset)
    : queries.recentFundraisers(deps.db, filters, params.pageSize, offset);
  return {
    rows: found.results,
    totalCount: found.totalCount,
    ...(found.totalCountCapped && { totalCountCapped: true as const }),
  };
}

/**
 * GET /api/fundraisers/search: browse and search pages, where visitors land (issue 24): each
 * search and page is answered from the public list cache, serialized once, until a write changes
 * what it may show. The spec's envelope is results and totalCount; a capped total adds
 * `totalCountCapped: true`.
 */
export function searchFundraisers(deps: Deps, session: Session | null, params: FundraiserSearchParams) {
  // Searches for the same words (whatever spaces or punctuation between them) share an entry.
  const term = toMatchQuery(params.searchTerm) ?? params.searchTerm;
  const key = JSON.stringify(['search', term, params.genre, params.charityEin, params.page, params.pageSize]);
  return presentListCached(deps, session, key, () => {
    const { rows, ...counts } = findFundraisers(deps, params);
    return { rows, envelope: (results: Fundraiser[]) => ({ results, ...counts }) };
  });
}

/**
 * Refusals that come before the route reads the request (issue 14): whoever may not manage this
 * fundraiser, or may not make this edit of it, is refused whatever they sent, and learns nothing
 * from the validation of it. The service functions check again, in their own reads and writes.
 */
export function checkMayManage(deps: Deps, session: Session, id: number): void {
  manageable(deps, session, id);
}

export function checkMayUpdate(deps: Deps, session: Session, id: number): void {
  updatable(deps, session, id);
}

/** The donor list of the manage page: owner and admins only. */
export function listTransactions(deps: Deps, session: Session, id: number, page: number, pageSize = PAGE_SIZE) {
  const row = manageable(deps, session, id);
  const found = queries.listDonations(deps.db, row.id, pageSize, page * pageSize);
  const money = journal.sumsOfPayments(
    deps.db,
    found.results.map((donation) => donation.id),
  );
  return {
    // What stayed paid (the journal's sums): a partial refund or a dispute took its parts back.
    results: found.results.map((donation) => ({
      name: donation.name,
      email: donation.email,
      amountCents: money.get(donation.id)?.donatedCents ?? 0,
      tipCents: money.get(donation.id)?.tipKeptCents ?? 0,
      createdAt: donation.createdAt.toISOString(),
      updatedAt: donation.updatedAt.toISOString(),
    })),
    totalCount: found.totalCount,
  };
}

/**
 * What the server knows of /projects/{slugOrId} before the app loads: a public fundraiser's share
 * card and its own address (a numeric id or a former slug moves there), or that there is none.
 * A draft is the app's to show or hide, so nothing of it is told here.
 */
export function fundraiserPage(deps: Deps, slugOrId: string): PageInfo {
  const row = /^\d+$/.test(slugOrId)
    ? queries.findFundraiserById(deps.db, Number(slugOrId))
    : findBySlugOrFormerSlug(deps.db, slugOrId);
  if (!row) return { kind: 'missing' };
  if (row.status !== 'PUBLISHED') return { kind: 'plain' };
  const path = `/projects/${encodeURIComponent(row.urlSlug ?? String(row.id))}`;
  if ((row.urlSlug ?? String(row.id)) !== slugOrId) return { kind: 'moved', path };
  const artist = artistSummaries(deps.db, [row.artistId]).get(row.artistId);
  const card = {
    title: artist && !artist.deletedAt ? `${row.name} by ${artist.name}` : row.name,
    description: `${row.description} — Donate to ${row.charityName} and get the music.`,
    imagePath: row.albumCoverId ? imageUrl(row.albumCoverId, 1200, 'jpg') : undefined,
    path,
    // Its embedded player (issue 28): a player card where links unfurl, an oEmbed answer for the rest.
    player: {
      path: embedUrl('', row.urlSlug ?? String(row.id)),
      width: EMBED_FRAME.width,
      height: EMBED_FRAME.height.full,
    },
    oEmbed: true,
  };
  return { kind: 'card', card };
}

// ---------------------------------------------------------------------------------------------
// Writes. The helpers below are exported for the legacy form (legacy-form.ts), which writes the
// same columns through another payload.

/** The charity by EIN from the directory (search results from Every.org are cached there too). */
export function chosenCharity(deps: Pick<Deps, 'db'>, ein: string | undefined) {
  const digits = ein ? normaliseEin(ein) : null;
  if (!ein) throw new FormError([{ field: 'charityEin', message: say.nonprofitRequired }]);
  const charity = digits ? findDirectoryCharity(deps.db, digits) : undefined;
  if (!charity) throw new FormError([{ field: 'charityEin', message: say.nonprofitInvalid }]);
  return { charityEin: charity.ein, charityName: charity.name, charityWebsite: charity.websiteUrl };
}

/** A charity change on a published fundraiser is for admins only (spec part 2 section 4). */
export function checkCharityChange(session: Session, row: FundraiserRow, nextEin: string) {
  if (row.status === 'PUBLISHED' && nextEin !== row.charityEin && !session.user.isAdmin) {
    throw forbidden(say.onlyAdminsChangeCharity);
  }
}

/** The slug follows the name while the fundraiser is a draft; once public, links must last. */
export function slugFor(db: Db, row: Pick<FundraiserRow, 'id' | 'status' | 'urlSlug' | 'name'> | null, name: string) {
  if (row && (row.status !== 'DRAFT' || row.name === name) && row.urlSlug) return row.urlSlug;
  return uniqueSlug(name, (slug) => queries.isSlugTaken(db, slug, row?.id));
}

/**
 * Updates the row as the caller may (queries.updateOwnFundraiser), and keeps the slug it left:
 * a draft's invite link is shared before it is renamed, and must keep leading here.
 */
function updateRow(tx: Db, before: FundraiserRow, owner: Owner, values: Partial<FundraiserRow>) {
  const updated = queries.updateOwnFundraiser(tx, before.id, owner, values);
  if (updated && before.urlSlug && updated.urlSlug !== before.urlSlug) {
    queries.rememberFormerSlug(tx, before.id, before.urlSlug);
    if (updated.urlSlug) queries.forgetFormerSlug(tx, updated.urlSlug);
  }
  return updated;
}

/** POST /api/fundraisers/save: creates the draft (no id) or updates it. */
export function saveFundraiser(deps: Deps, session: Session, input: SaveFundraiserInput): FundraiserRef {
  if (!input.artistId || !input.charityEin) throw invalid(say.chooseArtistAndCharity);
  const artist = findLiveArtist(deps.db, input.artistId);
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
    if (!existing) {
      const urlSlug = details.name ? slugFor(tx, null, details.name) : null;
      return toRef(queries.insertFundraiser(tx, { userId: session.user.id, ...values, urlSlug }));
    }
    const urlSlug = details.name ? slugFor(tx, existing, details.name) : existing.urlSlug;
    const updated = updateRow(tx, existing, editorOf(session), { ...values, urlSlug });
    if (!updated) throw notFound(say.notFound);
    return toRef(updated);
  });
}

type MusicInput = Pick<FundraiserMusicInput, 'albumCover' | 'previewTrackName' | 'previewTrackFile' | 'trackList'>;

/**
 * Upload ids a fundraiser may take: ones it already has (an admin resubmitting the owner's files),
 * or the caller's own uploads of the right kind that are still there to be kept. Anyone else's,
 * a made-up id, and an upload that expired or was removed are FILE_NO_LONGER_AVAILABLE, naming
 * every such field (server/errors.ts). Asked with the transaction that saves them (`db`), so
 * cleanup cannot take a file in between.
 */
export function checkMusicUploads(db: Db, session: Session, row: FundraiserRow | null, input: MusicInput) {
  const current = new Map<string, 'image' | 'track'>();
  if (row) {
    if (row.albumCoverId) current.set(row.albumCoverId, 'image');
    if (row.previewTrackUploadId) current.set(row.previewTrackUploadId, 'track');
    for (const track of queries.listTracks(db, [row.id])) if (track.uploadId) current.set(track.uploadId, 'track');
  }
  const gone: NamedUpload[] = [];
  const wrongKind: { field: string; message: string }[] = [];
  const check = (id: string, kind: 'image' | 'track', upload: NamedUpload) => {
    if (current.get(id) === kind) return;
    const use = savableUpload(db, id, session.user.id, kind);
    if (use === 'gone') gone.push(upload);
    if (use === 'wrong-kind')
      wrongKind.push({ field: upload.field, message: `Please upload the ${upload.name} again.` });
  };
  check(input.albumCover, 'image', { field: 'albumCover', name: 'album cover' });
  check(input.previewTrackFile, 'track', { field: 'previewTrackFile', name: 'preview track' });
  input.trackList.forEach((track, index) =>
    check(track.file, 'track', { field: `trackList.${index}.file`, name: `file of track ${index + 1}` }),
  );
  if (gone.length) throw filesNoLongerAvailable(gone);
  if (wrongKind.length) throw new FormError(wrongKind);
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

/**
 * Writes a fundraiser's music. A new preview track starts processing afresh (and the old one's
 * renditions go); new track uploads are processed and the renditions of removed tracks go, all
 * queued in this transaction so that no change is left without its job (issue 5).
 */
export function writeMusic(
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
  const updated = updateRow(tx, before, owner, newPreview ? { ...values, ...freshPreviewTrack } : values);
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
  const ref = deps.db.transaction((tx) => {
    checkMusicUploads(tx, session, row, input);
    const updated = writeMusic(tx, row.id, editorOf(session), musicValues(input), streamingTracks(input));
    if (!updated) throw notFound(say.notFound);
    // Removed tracks are not to be streamed from a remembered grant (counted with the change).
    deps.streamGrants.clear();
    return toRef(updated);
  });
  return ref;
}

export function detailValues(input: Omit<UpdateFundraiserInput, keyof MusicInput> | UpdateFundraiserV1Input) {
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
/** Editable by this caller, and a legacy v1 fundraiser only by an admin (its 'Upgrade to streaming'). */
function updatable(deps: Deps, session: Session, id: number): FundraiserRow {
  const row = editable(deps, session, id);
  if (row.hasV1Tracks && !session.user.isAdmin) {
    throw forbidden('Only admins can upgrade a legacy fundraiser to streaming.');
  }
  return row;
}

export function updateFundraiser(deps: Deps, session: Session, id: number, input: UpdateFundraiserInput) {
  const row = updatable(deps, session, id);
  const charity = chosenCharity(deps, input.charityEin);
  checkCharityChange(session, row, charity.charityEin);
  const ref = deps.db.transaction((tx) => {
    checkMusicUploads(tx, session, row, input);
    const urlSlug = slugFor(tx, row, input.name);
    const updated = writeMusic(
      tx,
      row.id,
      editorOf(session),
      { ...detailValues(input), ...charity, ...musicValues(input), hasV1Tracks: false, urlSlug },
      streamingTracks(input),
    );
    if (!updated) throw notFound(say.notFound);
    deps.streamGrants.clear();
    return toRef(updated);
  });
  return ref;
}

/**
 * PATCH /api/fundraisers/{id}/publish. A DRAFT artist is published with it when asked (the
 * dialog's 'Yes, publish both!'), in one transaction, and only if the artist is complete.
 */
export function publishFundraiser(deps: Deps, session: Session, id: number, publishArtist: boolean) {
  const row = manageable(deps, session, id);
  if (row.status === 'PUBLISHED') return presentFundraiser(deps, row, session);
  const [record] = loadRecords(deps.db, [row]);
  if (!record || !isPublishable(record)) throw invalid(say.notPublishable);
  const artist = findLiveArtist(deps.db, row.artistId);
  if (!artist) throw invalid(say.finishArtistFirst);
  if (artist.status === 'DRAFT') {
    if (!isArtistPublishable(artist)) throw invalid(say.finishArtistFirst);
    if (!publishArtist) throw invalid(say.artistMustBePublished);
  }
  const published = deps.db.transaction((tx) => {
    const now = new Date();
    if (artist.status === 'DRAFT') publishArtistWith(tx, artist.id, now);
    const updated = queries.updateOwnFundraiser(tx, row.id, ownerOf(session), {
      status: 'PUBLISHED',
      publishedAt: now,
      // A draft that never got a name has no slug; publishing needs a name, so it has one now.
      urlSlug: row.urlSlug ?? slugFor(tx, row, row.name),
    });
    if (!updated) throw notFound(say.notFound);
    return updated;
  });
  return presentFundraiser(deps, published, session);
}

/** Soft delete: no more donations, gone from every list; the donations made stay on record. */
export function deleteFundraiser(deps: Deps, session: Session, id: number) {
  const row = manageable(deps, session, id);
  deps.db.transaction(() => {
    const deleted = queries.updateOwnFundraiser(deps.db, row.id, ownerOf(session), { deletedAt: new Date() });
    if (!deleted) throw notFound(say.notFound);
    // Its owner may no longer stream it (server/access/can-stream.ts): nothing remembered says otherwise.
    deps.streamGrants.clear();
  });
}

/**
 * DELETE /api/artists/{id} (spec part 1 section 7: 'the artist's projects are removed too'). It
 * lives here because it removes fundraisers: the artists feature knows nothing of them. Soft
 * deletes, in one transaction: the donations made through them stay on record.
 */
export function deleteArtistWithFundraisers(deps: Deps, session: Session, artistId: number) {
  const artist = deletableArtist(deps, session, artistId);
  deps.db.transaction((tx) => {
    const at = new Date();
    if (!removeArtist(tx, artist.id, at)) throw notFound('Artist not found.');
    queries.softDeleteArtistFundraisers(tx, artist.id, at);
    deps.streamGrants.clear();
  });
}

/**
 * A user's account is being deleted (the accounts feature asks, in its transaction): their
 * fundraisers and artists are soft-deleted. Donations and purchases stay: the charities are owed
 * the money, and buyers keep their music (server/access/can-stream.ts).
 */
export function removeOwnerContent(db: Db, userId: number, at: Date) {
  queries.softDeleteUserFundraisers(db, userId, at);
  removeUserArtists(db, userId, at);
}

/** Whether this fundraiser is published and not deleted (the site's promo must be). */
export function isPublicFundraiser(db: Db, id: number): boolean {
  return queries.findFundraiserById(db, id)?.status === 'PUBLISHED';
}

/** The fundraiser a slug named before a rename, deleted or not (an old link to a bought album). */
export function formerSlugOwner(db: Db, slug: string): number | undefined {
  return queries.findFundraiserIdBySlugHistory(db, slug);
}

/** What a donation needs of its fundraiser (the donations feature, issue 10), deleted or not. */
export type DonationTarget = {
  id: number;
  name: string;
  urlSlug: string;
  /** Only a published fundraiser takes donations; a draft or a deleted one does not. */
  takesDonations: boolean;
  minimumCents: number;
  charityEin: string;
  charityName: string;
  artistName: string;
  /** The cover's URL, or null. */
  image: string | null;
};

export function donationTarget(db: Db, id: number): DonationTarget | undefined {
  const row = queries.findFundraiserIncludingDeleted(db, id);
  if (!row) return undefined;
  const artist = artistSummaries(db, [row.artistId]).get(row.artistId);
  return {
    id: row.id,
    name: row.name.trim() || 'Untitled fundraiser',
    urlSlug: row.urlSlug ?? String(row.id),
    takesDonations: row.status === 'PUBLISHED' && row.deletedAt === null,
    minimumCents: row.minimumDonationCents,
    charityEin: row.charityEin,
    charityName: row.charityName,
    artistName: artist?.name ?? '',
    image: row.albumCoverId ? imageUrl(row.albumCoverId, 400, 'jpg') : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Reach (issue 28): for the sharing feature, which counts shares and what the embeds bring.

/**
 * A fundraiser's completed shares as they stand now (the public JSON's figure is kept until the
 * next change to a public page: a share itself empties no cache, issue 28).
 */
function currentShareCount(db: Db, row: FundraiserRow): number {
  return row.shareCount + (queries.sharesCounted(db, [row.id]).get(row.id) ?? 0);
}

/** The fundraiser's share count, for those who may manage it. */
export function shareCountOf(deps: Deps, session: Session, id: number): number {
  return currentShareCount(deps.db, manageable(deps, session, id));
}

/** A published fundraiser's share count, as it stands (the share counter's answer). */
export function publicShareCount(db: Db, id: number): number {
  const row = queries.findFundraiserById(db, id);
  if (!row || row.status !== 'PUBLISHED') throw notFound(say.notFound);
  return currentShareCount(db, row);
}

const EMBED_SUMS_SLICE = 5000;

/** Donations that began at the embedded player and still stand, and what they gave the charity. */
export function embedDonations(deps: Deps, id: number): { count: number; raisedCents: number } {
  const ids = queries.embedDonationIds(deps.db, id);
  let raisedCents = 0;
  // In slices: a statement takes a bounded number of parameters, a popular embed brings more.
  for (let start = 0; start < ids.length; start += EMBED_SUMS_SLICE) {
    const slice = ids.slice(start, start + EMBED_SUMS_SLICE);
    for (const sums of journal.sumsOfPayments(deps.db, slice).values()) raisedCents += sums.donatedCents;
  }
  return { count: ids.length, raisedCents };
}

// ---------------------------------------------------------------------------------------------
// Insight (issue 29): what the insight feature needs of a fundraiser.

/** A fundraiser its caller may manage, as its dashboard names it, and when it began ("all time"). */
export function managedFundraiserSummary(deps: Deps, session: Session, id: number) {
  const row = manageable(deps, session, id);
  return {
    id: row.id,
    name: row.name.trim() || 'Untitled fundraiser',
    slug: row.urlSlug ?? String(row.id),
    goalCents: row.donationGoalCents,
    createdAt: row.createdAt,
  };
}

/**
 * The published fundraiser whose page an address is (/projects/{slug}, by a numeric id or a former
 * slug too), for counting its page views; undefined for any other page.
 */
export function publishedFundraiserAt(deps: Deps, path: string): number | undefined {
  const slugOrId = /^\/projects\/([^/?#]+)\/?$/.exec(path)?.[1];
  if (slugOrId === undefined) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(slugOrId);
  } catch {
    return undefined;
  }
  const row = /^\d+$/.test(decoded)
    ? queries.findFundraiserById(deps.db, Number(decoded))
    : findBySlugOrFormerSlug(deps.db, decoded);
  return row?.status === 'PUBLISHED' ? row.id : undefined;
}
