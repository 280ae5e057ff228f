import * as z from 'zod/mini';
import { DOWNLOAD_FORMAT_IDS } from '../download-formats';

// What the download formats answer (issue 27; DESIGN.md, contract details for wave 3, formats).

export const downloadFormatIdSchema = z.enum(DOWNLOAD_FORMAT_IDS);

/** One format of GET /api/fundraisers/{id}/formats, with its approximate size for the whole album. */
export const albumFormatSchema = z.object({
  id: downloadFormatIdSchema,
  label: z.string(),
  lossless: z.boolean(),
  available: z.boolean(),
  /** The album's size in this format: exact once prepared, else worked out from the tracks' lengths. */
  approxBytes: z.int(),
  /** Why the format is not offered (present only when `available` is false). */
  reason: z.optional(z.string()),
});
export type AlbumFormat = z.infer<typeof albumFormatSchema>;

export const albumFormatsSchema = z.object({ formats: z.array(albumFormatSchema) });
export type AlbumFormats = z.infer<typeof albumFormatsSchema>;

/**
 * POST and GET …/formats/{format}: how far preparing the album (or the one track) in a format has
 * come. `downloadUrl` is where the file is once `status` is "ready" (the same link a tab that did not
 * start the preparation uses). `failed` names the first track that could not be made.
 */
export const formatPreparationSchema = z.object({
  format: downloadFormatIdSchema,
  status: z.enum(['preparing', 'ready', 'failed']),
  readyTracks: z.int(),
  totalTracks: z.int(),
  downloadUrl: z.string(),
  failed: z.optional(z.object({ trackId: z.int(), trackName: z.string(), message: z.string() })),
});
export type FormatPreparation = z.infer<typeof formatPreparationSchema>;
