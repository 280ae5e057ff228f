import { z } from 'zod';

// The charity directory's answers (spec part 2 sections 3 and 7; DESIGN.md section 4).

export const nonprofitSchema = z.object({
  /** Formatted 12-3456789. */
  ein: z.string(),
  name: z.string(),
  locationAddress: z.string().optional(),
  tags: z.array(z.string()).optional(),
  logoUrl: z.string().optional(),
  websiteUrl: z.string().optional(),
});
export type Nonprofit = z.infer<typeof nonprofitSchema>;

export const nonprofitSearchResultSchema = z.object({ nonprofits: z.array(nonprofitSchema) });

export const nonprofitDetailSchema = z.object({
  nonprofit: nonprofitSchema,
  nonprofitTags: z.array(z.object({ tagName: z.string(), title: z.string() })),
});

/** 9 digits, with or without the dash after the second (12-3456789 or 123456789). */
export function normaliseEin(value: string): string | null {
  const match = value.trim().match(/^(\d{2})-?(\d{7})$/);
  return match ? `${match[1]}${match[2]}` : null;
}

export function formatEin(digits: string): string {
  return `${digits.slice(0, 2)}-${digits.slice(2)}`;
}

/** GET /api/nonprofits/featured: the home page's charity logos, in the admins' order. */
export const featuredCharitiesSchema = z.object({ nonprofits: z.array(nonprofitSchema) });

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
