import fs from 'node:fs/promises';
import { CsvError, type Info } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import { fundraiserLimits, GENRES, limits } from '../../shared/constants';
import { createArtistSchema } from '../../shared/schemas/artists';
import {
  charityEinField,
  charityFormShape,
  fundraiserDetailsSchema,
  trackNamesField,
} from '../../shared/schemas/fundraisers';
import { emailField, optionalText, requiredText } from '../../shared/schemas/text';

// The CSV of an old catalogue (`npm run cli -- import-legacy FILE.csv`; the README lists its
// columns): RFC 4180 as spreadsheets write it (quoted cells may hold commas, quotes and line
// breaks), UTF-8 with or without a byte order mark, a header row naming the columns in any order.
// Each cell is checked with the shared schema and message the API uses for that field, so a
// catalogue row is held to what the legacy form would accept.

/** A file's path in a cell: relative to the CSV's own folder, or absolute. */
const PATH_MAX = 4096;
const EXTERNAL_ID_MAX = 200;
const fileCell = (label: string) => requiredText(label, PATH_MAX);

const statusCell = z
  .string()
  .trim()
  .toUpperCase()
  .optional()
  .transform((value) => value || 'PUBLISHED')
  .pipe(z.enum(['PUBLISHED', 'DRAFT'], { error: 'Status must be PUBLISHED or DRAFT.' }));

/** When the album came out in the old catalogue: its place among the recent fundraisers. */
const publishedAtCell = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return undefined;
    const date = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'Published at must be a date, like 2016-05-31.' });
      return z.NEVER;
    }
    if (date.getTime() > Date.now()) {
      ctx.addIssue({ code: 'custom', message: 'Published at cannot be in the future.' });
      return z.NEVER;
    }
    return date;
  });

/** One track name per line of the cell (a spreadsheet's line break within a cell), in album order. */
const trackNamesCell = z
  .string()
  .optional()
  .transform((text) =>
    (text ?? '')
      .split(/\r\n|\r|\n/)
      .map((name) => name.trim())
      .filter(Boolean),
  )
  .pipe(trackNamesField);

const artist = createArtistSchema.shape;
const details = fundraiserDetailsSchema.shape;

/** A catalogue row, keyed by its column names, so every message is reported with its column. */
export const legacyRowSchema = z.object({
  external_id: requiredText('External id', EXTERNAL_ID_MAX),
  owner_email: emailField,
  owner_first_name: optionalText('First name', limits.firstName),
  owner_last_name: optionalText('Last name', limits.lastName),
  artist_name: artist.name,
  /** Required only when the row's artist is new (checked then, with the artist form's rule). */
  artist_description: optionalText('Description', limits.artistDescription),
  artist_website: artist.website,
  artist_image: optionalText('Artist image', PATH_MAX),
  name: details.name,
  description: details.description,
  genre: details.genre,
  genre_secondary: details.genreSecondary,
  youtube_link: details.youtubeLink,
  vimeo_link: details.vimeoLink,
  /** In dollars as the charity step takes them ('10', '10.00'), turned into cents there. */
  minimum_donation: charityFormShape.donationMinimumCents,
  fundraising_goal: charityFormShape.fundraisingGoalCents,
  charity_ein: charityEinField,
  status: statusCell,
  published_at: publishedAtCell,
  album_cover: fileCell('Album cover'),
  preview_track_name: optionalText('Preview track name', fundraiserLimits.trackName),
  preview_track_file: fileCell('Preview track'),
  track_names: trackNamesCell,
  album_zip: fileCell('Album zip'),
});
export type LegacyRow = z.infer<typeof legacyRowSchema>;
export type LegacyColumn = keyof typeof legacyRowSchema.shape;

export const LEGACY_COLUMNS = Object.keys(legacyRowSchema.shape) as LegacyColumn[];

/** Columns a row can never do without; the others may be left out of the file altogether. */
const REQUIRED_COLUMNS: LegacyColumn[] = [
  'external_id',
  'owner_email',
  'artist_name',
  'name',
  'description',
  'genre',
  'minimum_donation',
  'fundraising_goal',
  'charity_ein',
  'album_cover',
  'preview_track_file',
  'track_names',
  'album_zip',
];

/** What helps an operator fix a cell, beside the form's own message. */
export const columnHints: Partial<Record<LegacyColumn, string>> = {
  genre: `one of: ${GENRES.join(', ')}`,
  genre_secondary: `empty, or one of: ${GENRES.join(', ')}`,
  charity_ein: 'the charity directory knows the bundled charities; `npm run cli -- import-irs-bmf` adds the IRS list',
};

/** A problem with one cell (its column) or with the row as a whole. */
export type RowProblem = { column?: LegacyColumn; message: string };

/** A data row of the file: the line it starts on, and its cells by column. */
export type CatalogueRecord = { line: number; cells: Partial<Record<LegacyColumn, string>>; problem?: string };

/** The file cannot be read as a catalogue at all: nothing of it is imported. */
export class CatalogueFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueFileError';
  }
}

const lineBreaks = (cells: string[]) => cells.join('').match(/\r\n|\r|\n/g)?.length ?? 0;

/**
 * The file's data rows. Read whole before anything is imported: a catalogue is small, and a file
 * broken in its last line (a quote never closed) then imports nothing rather than some rows.
 */
export async function readCatalogue(file: string): Promise<CatalogueRecord[]> {
  let parsed: { info: Info; record: string[] }[];
  try {
    const text = await fs.readFile(file);
    // Typed as string[][] by csv-parse; `info: true` makes each record { info, record }.
    parsed = parse(text, {
      bom: true,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
    }) as unknown as { info: Info; record: string[] }[];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === 'number' ? `line ${error.lines}: ` : '';
      throw new CatalogueFileError(`${file} is not a readable CSV file: ${line}${error.message}`);
    }
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      throw new CatalogueFileError(`${file} does not exist.`);
    }
    throw error;
  }
  const [header, ...rows] = parsed;
  if (!header) throw new CatalogueFileError(`${file} is empty: it needs a header row and a row per fundraiser.`);
  const columns = header.record.map((name) => name.trim().toLowerCase());
  const known = new Set<string>(LEGACY_COLUMNS);
  const unknown = columns.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new CatalogueFileError(
      `${file}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')} in the header. The columns are: ${LEGACY_COLUMNS.join(', ')}.`,
    );
  }
  const twice = columns.filter((name, index) => columns.indexOf(name) !== index);
  if (twice.length) throw new CatalogueFileError(`${file}: the header names ${twice.join(', ')} more than once.`);
  const missing = REQUIRED_COLUMNS.filter((name) => !columns.includes(name));
  if (missing.length) throw new CatalogueFileError(`${file}: the header has no ${missing.join(', ')} column.`);

  return rows.flatMap(({ info, record }) => {
    // csv-parse counts the line a record ends on; a quoted cell's line breaks come before it.
    const line = info.lines - lineBreaks(record);
    // A row of empty cells (a spreadsheet's trailing rows) is no row.
    if (record.every((cell) => cell.trim() === '')) return [];
    const cells = Object.fromEntries(columns.map((name, index) => [name, record[index]]));
    const problem =
      record.length === columns.length
        ? undefined
        : `It has ${record.length} cells where the header has ${columns.length}: check its commas and quotes.`;
    return [{ line, cells, problem }];
  });
}
