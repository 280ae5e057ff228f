import { z } from 'zod';
import { pageParam, pageSizeParam } from './text';

// Your music's paging (spec part 1 sections 2 and 7); what the library answers is in
// answers/library.ts.

export const libraryPageParamsSchema = z.object({ page: pageParam, pageSize: pageSizeParam });
