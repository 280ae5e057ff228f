import { z } from 'zod';

// What the embedded player reports (issue 28): that it was seen, that a preview was played.

export const embedEventSchema = z.object({
  kind: z.enum(['view', 'play'], { error: 'Kind must be view or play.' }),
});

/** A size oEmbed's consumer gives (`maxwidth`, `maxheight`): whole pixels; empty is none. */
const pixels = (name: 'maxwidth' | 'maxheight') =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      if (!/^\d{1,5}$/.test(raw) || Number(raw) === 0) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number of pixels.` });
        return z.NEVER;
      }
      return Number(raw);
    });

/** GET /api/oembed's query (oembed.com, section 2.2); `format` is read before it (501 for xml). */
export const oEmbedQuerySchema = z.object({
  url: z.string({ error: 'The url parameter is required.' }).min(1, 'The url parameter is required.'),
  maxwidth: pixels('maxwidth'),
  maxheight: pixels('maxheight'),
});
export type OEmbedQuery = z.infer<typeof oEmbedQuerySchema>;
