import * as z from 'zod/mini';
import { limits } from '../constants';

/** POST /api/uploads/image and /track answer the new upload's id (DESIGN.md contract details). */
export const uploadResultSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(limits.uploadId)) });
export type UploadResult = z.infer<typeof uploadResultSchema>;
