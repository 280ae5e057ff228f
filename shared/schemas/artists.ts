import { z } from 'zod';
import { limits } from '../constants';
import { messages } from '../messages';
import { optionalUrl, pageParam, pageSizeParam, requiredText, searchTermParam } from './text';

// What is sent about artists (spec part 1 sections 3, 5 and 7); what the API answers is in
// answers/artists.ts.

/** Spec part 1 section 4: an artist can be published once it has a name, description and profile image. */
export function isArtistPublishable(artist: { name: string; description: string; profileImageId: string | null }) {
  return artist.name.trim() !== '' && artist.description.trim() !== '' && Boolean(artist.profileImageId);
}

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

export const artistSearchParamsSchema = z.object({
  page: pageParam,
  pageSize: pageSizeParam,
  searchTerm: searchTermParam,
});
