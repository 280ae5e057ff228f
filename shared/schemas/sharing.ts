import { z } from 'zod';

// What the embedded player reports (issue 28): that it was seen, that a preview was played.

export const embedEventSchema = z.object({
  kind: z.enum(['view', 'play'], { error: 'Kind must be view or play.' }),
});
