import { z } from 'zod';
import { FEATURED_CHARITY_COUNT } from '../constants';
import { normaliseEin } from '../ein';

// What admins send about the charity directory (spec part 2 sections 5 and 7).

export const featuredCharityMessages = {
  atLeastOne: 'Please choose at least one charity.',
  tooMany: `Please choose at most ${FEATURED_CHARITY_COUNT} charities.`,
  duplicate: 'Nonprofit is already in the list.',
  invalid: 'Nonprofit is not valid',
  updated: 'Featured charities updated successfully.',
  updateFailed: 'Unable to update featured charities. Please try again.',
} as const;

/** PUT /api/admin/featured-charities: the EINs to feature, in order (up to 10). */
export const updateFeaturedCharitiesSchema = z.object({
  eins: z
    .array(
      z
        .string()
        .trim()
        .refine((value) => normaliseEin(value) !== null, featuredCharityMessages.invalid),
    )
    .min(1, featuredCharityMessages.atLeastOne)
    .max(FEATURED_CHARITY_COUNT, featuredCharityMessages.tooMany)
    .superRefine((eins, ctx) => {
      // The same charity twice, however its EIN is written, is refused at its second place.
      const seen = new Set<string>();
      eins.forEach((value, index) => {
        const ein = normaliseEin(value);
        if (ein === null) return;
        if (seen.has(ein)) ctx.addIssue({ code: 'custom', path: [index], message: featuredCharityMessages.duplicate });
        seen.add(ein);
      });
    }),
});
