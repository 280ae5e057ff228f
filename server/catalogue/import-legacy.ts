import path from 'node:path';
import type { FundraiserRef } from '../../shared/answers/fundraisers';
import { createArtistSchema, isArtistPublishable } from '../../shared/schemas/artists';
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { FormError } from '../errors';
import { accountIdByEmail, createImportedAccount } from '../features/accounts/service';
import { createImportedArtist, findUserArtistByName, publishArtistWith } from '../features/artists/service';
import { importedFundraiser, insertImportedLegacyFundraiser } from '../features/fundraisers/legacy-import';
import { chosenCharity } from '../features/fundraisers/service';
import { hashPassword } from '../infra/security/passwords';
import { randomToken } from '../infra/security/tokens';
import { insertUpload } from '../infra/storage/upload-records';
import {
  type FileKind,
  FileProblem,
  findSourceFile,
  type PlacedFile,
  placeFile,
  removeFiles,
  type SourceFile,
} from './catalogue-files';
import {
  type CatalogueRecord,
  columnHints,
  type LegacyColumn,
  type LegacyRow,
  LEGACY_COLUMNS,
  legacyRowSchema,
  readCatalogue,
  type RowProblem,
} from './legacy-csv';

// `npm run cli -- import-legacy FILE.csv`: an old catalogue's albums become legacy v1 fundraisers
// (spec part 2 section 2: the legacy form, updatev1, 'Upgrade to streaming', the download-only
// album page), each with its owner's account, its artist, its charity and its files. It sits
// above the features, like server/demo/, and asks each for its part: accounts (the owner),
// artists, fundraisers, and upload-records for the files (docs/architecture.md).
//
// Each row stands alone: checked in full (cells, charity, files) before anything is written, its
// files put into media storage only once they pass, and then saved in one transaction, so a row
// is imported whole or not at all, and a bad row is reported with its line while the others go
// on. A row's external_id is kept on its fundraiser (unique): a second run skips what the first
// imported, and changes nothing.

export type ImportDeps = Pick<Deps, 'db' | 'media' | 'logger'>;

/** Where the run's lines go: what was done, and what was not (the CLI prints these on stderr). */
export type ImportOutput = { done: (line: string) => void; problem: (line: string) => void };

export type ImportSummary = {
  rows: number;
  imported: number;
  alreadyImported: number;
  failed: number;
  artistsCreated: number;
  /** Emails of the accounts made for owners who had none: they set a password with 'Forgot password?'. */
  accountsCreated: string[];
};

type RowOutcome =
  | { kind: 'imported'; ref: FundraiserRef; row: LegacyRow; artistCreated: boolean; accountCreated: boolean }
  | { kind: 'already'; ref: FundraiserRef; externalId: string }
  | { kind: 'failed'; problems: RowProblem[] };

/** A row left out, its problems in the order of the columns (the row's own first). */
const failed = (problems: RowProblem[]): RowOutcome => {
  const order = (problem: RowProblem) => (problem.column ? LEGACY_COLUMNS.indexOf(problem.column) : -1);
  return { kind: 'failed', problems: problems.toSorted((a, b) => order(a) - order(b)) };
};

/** Problems found while saving, in the transaction: it is rolled back, the row reported. */
class RowFailure extends Error {
  constructor(readonly problems: RowProblem[]) {
    super(problems.map((problem) => problem.message).join(' '));
    this.name = 'RowFailure';
  }
}

export async function importLegacyCatalogue(
  deps: ImportDeps,
  csvFile: string,
  out: ImportOutput,
): Promise<ImportSummary> {
  const records = await readCatalogue(csvFile);
  const csvDir = path.dirname(path.resolve(csvFile));
  const firstLineOf = new Map<string, number>();
  const summary: ImportSummary = {
    rows: records.length,
    imported: 0,
    alreadyImported: 0,
    failed: 0,
    artistsCreated: 0,
    accountsCreated: [],
  };
  for (const record of records) {
    const outcome = await importRow(deps, csvDir, record, firstLineOf);
    const at = `line ${record.line}`;
    if (outcome.kind === 'failed') {
      summary.failed++;
      out.problem(`${at}: not imported:`);
      for (const problem of outcome.problems) out.problem(`    ${describeProblem(problem)}`);
    } else if (outcome.kind === 'already') {
      summary.alreadyImported++;
      out.done(
        `${at}: external_id ${outcome.externalId} was imported already, as fundraiser ${outcome.ref.id}: skipped.`,
      );
    } else {
      summary.imported++;
      if (outcome.artistCreated) summary.artistsCreated++;
      if (outcome.accountCreated) summary.accountsCreated.push(outcome.row.owner_email);
      const where = `/projects/${outcome.ref.urlSlug ?? outcome.ref.id}`;
      out.done(
        `${at}: imported "${outcome.row.name}" by ${outcome.row.artist_name} as ${where} (fundraiser ${outcome.ref.id}, ${outcome.row.status === 'PUBLISHED' ? 'published' : 'draft'}).`,
      );
    }
  }
  return summary;
}

function describeProblem(problem: RowProblem): string {
  const hint = problem.column && columnHints[problem.column];
  const text = hint ? `${problem.message} (${hint})` : problem.message;
  return problem.column ? `${problem.column}: ${text}` : text;
}

/** The cells that are valid, each as its column's schema reads it, and what is wrong with the others. */
function readCells(cells: CatalogueRecord['cells']) {
  const values: Partial<LegacyRow> = {};
  const problems: RowProblem[] = [];
  for (const column of LEGACY_COLUMNS) {
    const read = legacyRowSchema.shape[column].safeParse(cells[column]);
    if (read.success) Object.assign(values, { [column]: read.data });
    else problems.push(...read.error.issues.map((issue) => ({ column, message: issue.message })));
  }
  return { values, problems };
}

/** The files a row names, by column: the artist's image only for a new artist. */
function filesOf(values: Partial<LegacyRow>, newArtist: boolean): [LegacyColumn, FileKind, string][] {
  const files: [LegacyColumn, FileKind, string | undefined][] = [
    ['album_cover', 'image', values.album_cover],
    ['preview_track_file', 'track', values.preview_track_file],
    ['album_zip', 'zip', values.album_zip],
    ['artist_image', 'image', newArtist ? values.artist_image : undefined],
  ];
  return files.flatMap(([column, kind, cell]) => (cell ? [[column, kind, cell] as const] : []));
}

async function importRow(
  deps: ImportDeps,
  csvDir: string,
  record: CatalogueRecord,
  firstLineOf: Map<string, number>,
): Promise<RowOutcome> {
  if (record.problem) return failed([{ message: record.problem }]);
  // Each cell on its own, so that one bad cell does not hide what is wrong with the others.
  const { values, problems } = readCells(record.cells);
  if (values.external_id !== undefined) {
    const firstLine = firstLineOf.get(values.external_id);
    if (firstLine !== undefined) {
      return failed([{ column: 'external_id', message: `${values.external_id} is on line ${firstLine} too.` }]);
    }
    firstLineOf.set(values.external_id, record.line);
    const done = importedFundraiser(deps.db, values.external_id);
    if (done) return { kind: 'already', ref: done, externalId: values.external_id };
  }

  // Everything that can be known before a file is touched.
  let charity: ReturnType<typeof chosenCharity> | undefined;
  if (values.charity_ein !== undefined) {
    try {
      charity = chosenCharity(deps, values.charity_ein);
    } catch (error) {
      if (!(error instanceof FormError)) throw error;
      problems.push(...error.formErrors.map((item) => ({ column: 'charity_ein' as const, message: item.message })));
    }
  }
  const ownerId = values.owner_email === undefined ? undefined : accountIdByEmail(deps.db, values.owner_email);
  const artist =
    ownerId === undefined || values.artist_name === undefined
      ? undefined
      : findUserArtistByName(deps.db, ownerId, values.artist_name);
  if (!artist) {
    // A new artist is held to the artist form's rules: a description and a profile image.
    const description = createArtistSchema.shape.description.safeParse(values.artist_description);
    if (values.artist_description !== undefined && !description.success) {
      problems.push({ column: 'artist_description', message: description.error.issues[0]!.message });
    }
    if (values.artist_image === '') problems.push({ column: 'artist_image', message: 'Artist image is required.' });
  } else if (values.status === 'PUBLISHED' && artist.status === 'DRAFT' && !isArtistPublishable(artist)) {
    problems.push({
      column: 'artist_name',
      message: `The artist ${artist.name} is an unfinished draft: finish it first, or import this row as a DRAFT.`,
    });
  }
  const sources: SourceFile[] = [];
  for (const [column, kind, cell] of filesOf(values, !artist)) {
    const found = await findSourceFile(csvDir, column, kind, cell);
    if ('path' in found) sources.push(found);
    else problems.push(found);
  }
  if (problems.length || !charity) return failed(problems);
  // Every cell passed on its own, and the row has no rule across cells: it is a whole row.
  const row = legacyRowSchema.parse(record.cells);

  const placed: PlacedFile[] = [];
  for (const source of sources) {
    try {
      placed.push(await placeFile(deps.media, source));
    } catch (error) {
      if (!(error instanceof FileProblem)) {
        await removeFiles(
          deps.media,
          placed.flatMap((file) => file.stored),
        );
        throw error;
      }
      problems.push(error.problem);
    }
  }
  if (problems.length) {
    await removeFiles(
      deps.media,
      placed.flatMap((file) => file.stored),
    );
    return failed(problems);
  }

  // Hashing is slow and async, so it is done before the transaction, and only for a new owner.
  const passwordHash = ownerId === undefined ? await hashPassword(randomToken()) : undefined;
  try {
    const saved = deps.db.transaction((tx) => saveRow(tx, row, charity, placed, passwordHash));
    return { kind: 'imported', row, ...saved };
  } catch (error) {
    await removeFiles(
      deps.media,
      placed.flatMap((file) => file.stored),
    );
    if (error instanceof RowFailure) return failed(error.problems);
    // Another run imported the same row meanwhile: its unique external id refused this copy.
    const other = importedFundraiser(deps.db, row.external_id);
    if (other) return { kind: 'already', ref: other, externalId: row.external_id };
    deps.logger.error({ err: error, externalId: row.external_id }, 'legacy import: a row could not be saved');
    const reason = error instanceof Error ? error.message : String(error);
    return failed([{ message: `It could not be saved: ${reason}` }]);
  }
}

/** The row's owner, artist, uploads and fundraiser, in the transaction `tx`. */
function saveRow(
  tx: Db,
  row: LegacyRow,
  charity: ReturnType<typeof chosenCharity>,
  placed: PlacedFile[],
  passwordHash: string | undefined,
) {
  const now = new Date();
  const publishedAt = row.status === 'PUBLISHED' ? (row.published_at ?? now) : null;
  let ownerId = accountIdByEmail(tx, row.owner_email);
  const accountCreated = ownerId === undefined;
  if (ownerId === undefined) {
    if (!passwordHash) throw new RowFailure([{ column: 'owner_email', message: 'The account changed meanwhile.' }]);
    const owner = { email: row.owner_email, firstName: row.owner_first_name, lastName: row.owner_last_name };
    ownerId = createImportedAccount(tx, owner, passwordHash);
  }
  const file = (column: LegacyColumn) => {
    const found = placed.find((item) => item.column === column);
    if (!found) return undefined;
    insertUpload(tx, { ...found.upload, userId: ownerId });
    return found.upload.id;
  };

  let artist = findUserArtistByName(tx, ownerId, row.artist_name);
  const artistCreated = artist === undefined;
  if (!artist) {
    const profileImageId = file('artist_image');
    if (!profileImageId) {
      throw new RowFailure([{ column: 'artist_image', message: 'Artist image is required.' }]);
    }
    artist = createImportedArtist(
      tx,
      {
        userId: ownerId,
        name: row.artist_name,
        description: row.artist_description,
        website: row.artist_website,
        profileImageId,
      },
      publishedAt,
    );
  } else if (publishedAt && artist.status === 'DRAFT') {
    // A published fundraiser's artist is public too (the publish dialog's 'Yes, publish both!').
    publishArtistWith(tx, artist.id, publishedAt);
  }

  const ref = insertImportedLegacyFundraiser(tx, {
    externalId: row.external_id,
    userId: ownerId,
    artistId: artist.id,
    details: {
      name: row.name,
      description: row.description,
      genre: row.genre,
      genreSecondary: row.genre_secondary ?? null,
      youtubeLink: row.youtube_link,
      vimeoLink: row.vimeo_link,
    },
    charity,
    minimumDonationCents: row.minimum_donation,
    donationGoalCents: row.fundraising_goal,
    albumCoverId: file('album_cover')!,
    previewTrackName: row.preview_track_name,
    previewTrackUploadId: file('preview_track_file')!,
    tracksZipUploadId: file('album_zip')!,
    trackNames: row.track_names,
    publishedAt,
    createdAt: publishedAt ?? now,
  });
  return { ref, artistCreated, accountCreated };
}
