import * as z from 'zod/mini';

// The charity directory's answers (spec part 2 sections 3 and 7; DESIGN.md section 4).

export const nonprofitSchema = z.object({
  /** Formatted 12-3456789. */
  ein: z.string(),
  name: z.string(),
  locationAddress: z.optional(z.string()),
  tags: z.optional(z.array(z.string())),
  logoUrl: z.optional(z.string()),
  websiteUrl: z.optional(z.string()),
});
export type Nonprofit = z.infer<typeof nonprofitSchema>;

export const nonprofitSearchResultSchema = z.object({ nonprofits: z.array(nonprofitSchema) });

export const nonprofitDetailSchema = z.object({
  nonprofit: nonprofitSchema,
  nonprofitTags: z.array(z.object({ tagName: z.string(), title: z.string() })),
});

/** GET /api/nonprofits/featured: the home page's charity logos, in the admins' order. */
export const featuredCharitiesSchema = z.object({ nonprofits: z.array(nonprofitSchema) });
export type FeaturedCharities = z.infer<typeof featuredCharitiesSchema>;
