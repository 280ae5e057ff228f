import { z } from 'zod';
import { limits } from '../constants';
import { messages } from '../messages';
import { optionalUrl, pageParam, pageSizeParam, requiredText, searchTermParam } from './text';

// Artist payloads and answers (spec part 1 sections 3, 5 and 7).

export const ARTIST_STATUSES = ['DRAFT', 'PUBLISHED'] as const;
export type ArtistStatus = (typeof ARTIST_STATUSES)[number];

/** Spec part 1 section 4: an artist can be published once it has a name, description and profile image. */
export function isArtistPublishable(artist: { name: string; description: string; profileImageId: string | null }) {
  return artist.name.trim() !== '' && artist.description.trim() !== '' && Boolean(artist.profileImageId);
}

export const artistSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  description: z.string(),
  website: z.string().optional(),
  /** URL of the 400 px JPEG rendition; `profileImage` is the upload id the other sizes derive from. */
  image: z.string().optional(),
  profileImage: z.string().optional(),
  status: z.enum(ARTIST_STATUSES),
  isPublishable: z.boolean(),
  publishedAt: z.string().nullable(),
  urlSlug: z.string().optional(),
});
export type Artist = z.infer<typeof artistSchema>;

const profileImageField = z
  .string({ error: messages.required('Profile image') })
  .trim()
  .max(limits.uploadId, messages.max('Profile image', limits.uploadId));

const artistFields = {
  name: requiredText('Name', limits.artistName),
  description: requiredText('Description', limits.artistDescription),
  website: optionalUrl('Website'),
};

/** Create: the profile image is required. */
export const createArtistSchema = z.object({
  ...artistFields,
  profileImage: profileImageField.min(1, messages.required('Profile image')),
});
export type CreateArtistInput = z.infer<typeof createArtistSchema>;

/** Update: the profile image may be left out when the artist already has one (checked by the server). */
export const updateArtistSchema = z.object({
  ...artistFields,
  profileImage: profileImageField.optional().transform((value) => value || undefined),
});
export type UpdateArtistInput = z.infer<typeof updateArtistSchema>;

export const updateArtistResultSchema = z.object({ urlSlug: z.string() });

export const artistSearchParamsSchema = z.object({
  page: pageParam,
  pageSize: pageSizeParam,
  searchTerm: searchTermParam,
});

export const artistListSchema = z.array(artistSchema);
export const artistSearchResultSchema = z.object({
  results: z.array(artistSchema),
  totalCount: z.number().int(),
  /** Present (true) when more than SEARCH_RESULT_CAP matched: totalCount is the cap, a lower bound. */
  totalCountCapped: z.boolean().optional(),
});
