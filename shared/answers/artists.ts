import * as z from 'zod/mini';

// What the artist calls answer (spec part 1 sections 3 and 7).

export const ARTIST_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export type ArtistStatus = (typeof ARTIST_STATUSES)[number];

export const artistSchema = z.object({
  id: z.int(),
  userId: z.int(),
  name: z.string(),
  description: z.string(),
  website: z.optional(z.string()),
  /** URL of the 400 px JPEG rendition; `profileImage` is the upload id the other sizes derive from. */
  image: z.optional(z.string()),
  profileImage: z.optional(z.string()),
  status: z.enum(ARTIST_STATUSES),
  isPublishable: z.boolean(),
  publishedAt: z.nullable(z.string()),
  urlSlug: z.optional(z.string()),
  /** The four link rows (schemas/artists.ts): each label and its address, '' when the row is empty. */
  website0: z.string(),
  url0: z.string(),
  website1: z.string(),
  url1: z.string(),
  website2: z.string(),
  url2: z.string(),
  website3: z.string(),
  url3: z.string(),
});
export type Artist = z.infer<typeof artistSchema>;

export const updateArtistResultSchema = z.object({ urlSlug: z.string() });
export const artistListSchema = z.array(artistSchema);
export const artistSearchResultSchema = z.object({
  results: z.array(artistSchema),
  totalCount: z.int(),
  /** Present (true) when more than SEARCH_RESULT_CAP matched: totalCount is the cap, a lower bound. */
  totalCountCapped: z.optional(z.boolean()),
});
