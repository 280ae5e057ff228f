import { z } from 'zod';
import { normaliseEin } from '../ein';

// What admins send about the charity directory (spec part 2 sections 5 and 7).

/** PUT /api/admin/featured-charities: the EINs to feature, in order (up to 10). */
export const updateFeaturedCharitiesSchema = z.object({
  eins: z
    .array(
      z
        .string()
        .trim()
        .refine((value) => normaliseEin(value) !== null, 'Nonprofit is not valid'),
    )
    .min(1, 'Please choose at least one charity.')
    .max(10, 'Please choose at most 10 charities.')
    .superRefine((eins, ctx) => {
      // The same charity twice, however its EIN is written, is refused at its second place.
      const seen = new Set<string>();
      eins.forEach((value, index) => {
        const ein = normaliseEin(value);
        if (ein === null) return;
        if (seen.has(ein))
          ctx.addIssue({ code: 'custom', path: [index], message: 'Nonprofit is already in the list.' });
        seen.add(ein);
      });
    }),
});
