import { z } from 'zod';
import { limits } from '../constants';
import { messages } from '../messages';
import { ARTIST_LINK_ROWS, type ArtistLinkKey, linkLabelKey, linkUrlKey } from '../artist-links';
import { optionalText, optionalUrl, pageParam, pageSizeParam, requiredText, searchTermParam } from './text';

// What is sent about artists (spec part 1 sections 3, 5 and 7); what the API answers is in
// answers/artists.ts.

/** Spec part 1 section 4: an artist can be published once it has a name, description and profile image. */
export function isArtistPublishable(artist: { name: string; description: string; profileImageId: string | null }) {
  return artist.name.trim() !== '' && artist.description.trim() !== '' && Boolean(artist.profileImageId);
}

export const artistLinkMessages = {
  urlWithoutLabel: 'Please enter a label for this link.',
  labelWithoutUrl: 'Please enter the URL for this link.',
} as const;

const linkLabel = optionalText('Link label', limits.linkLabel);
/** Validated like the website (spec part 1 section 5, URL): http(s), valid, at most 400, empty allowed. */
const linkUrl = optionalUrl('Link URL');

const linkFields = {
  website0: linkLabel,
  url0: linkUrl,
  website1: linkLabel,
  url1: linkUrl,
  website2: linkLabel,
  url2: linkUrl,
  website3: linkLabel,
  url3: linkUrl,
} satisfies Record<ArtistLinkKey, unknown>;

const profileImageField = z
  .string({ error: messages.required('Profile image') })
  .trim()
  .max(limits.uploadId, messages.max('Profile image', limits.uploadId));

const artistFields = {
  name: requiredText('Name', limits.artistName),
  description: requiredText('Description', limits.artistDescription),
  website: optionalUrl('Website'),
  ...linkFields,
};

const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * A link row is a label and its address together: half a row is refused on the half that is
 * missing, so the form shows the message beside the empty field.
 */
function checkLinkRows(value: Partial<Record<ArtistLinkKey, unknown>>, ctx: z.RefinementCtx) {
  for (const row of ARTIST_LINK_ROWS) {
    const label = textOf(value[linkLabelKey(row)]);
    const url = textOf(value[linkUrlKey(row)]);
    if (label && !url)
      ctx.addIssue({ code: 'custom', path: [linkUrlKey(row)], message: artistLinkMessages.labelWithoutUrl });
    if (url && !label)
      ctx.addIssue({ code: 'custom', path: [linkLabelKey(row)], message: artistLinkMessages.urlWithoutLabel });
  }
}

/** Create: the profile image is required. */
export const createArtistSchema = z
  .object({
    ...artistFields,
    profileImage: profileImageField.min(1, messages.required('Profile image')),
  })
  .superRefine(checkLinkRows);
export type CreateArtistInput = z.infer<typeof createArtistSchema>;

/** Update: the profile image may be left out when the artist already has one (checked by the server). */
export const updateArtistSchema = z
  .object({
    ...artistFields,
    profileImage: profileImageField.optional().transform((value) => value || undefined),
  })
  .superRefine(checkLinkRows);
export type UpdateArtistInput = z.infer<typeof updateArtistSchema>;

export const artistSearchParamsSchema = z.object({
  page: pageParam,
  pageSize: pageSizeParam,
  searchTerm: searchTermParam,
});
