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
