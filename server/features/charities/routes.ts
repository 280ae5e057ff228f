import { clientIpOf } from '../../http/request-context';
import { Hono } from 'hono';
import type { z } from 'zod';
import { limits } from '../../../shared/constants';
import { updateFeaturedCharitiesSchema } from '../../../shared/schemas/charities';
import { messages } from '../../../shared/messages';
import {
  type FeaturedCharities,
  type nonprofitDetailSchema,
  type nonprofitSearchResultSchema,
} from '../../../shared/answers/charities';
import { invalid } from '../../errors';
import type { AppEnv } from '../../http/context';
import { requireAdminSession } from '../../http/session';
import { jsonBody } from '../../http/validation';
import * as charities from './service';

// DESIGN.md section 4: the charity directory, served by our own server.
export const charityRoutes = new Hono<AppEnv>()
  .get('/nonprofits/search/:query', async (c) => {
    const query = c.req.param('query');
    if (query.length > limits.searchTerm) throw invalid(messages.max('Search term', limits.searchTerm));
    const nonprofits = await charities.searchNonprofits(c.get('deps'), clientIpOf(c), query);
    return c.json({ nonprofits } satisfies z.infer<typeof nonprofitSearchResultSchema>);
  })
  // Before /nonprofits/:ein, which would otherwise take "featured" for an EIN.
  .get('/nonprofits/featured', (c) => c.json(charities.featuredCharitiesAnswer(c.get('deps'))))
  .get('/nonprofits/:ein', async (c) => {
    const ein = c.req.param('ein');
    if (ein.length > limits.charityEin) throw invalid(messages.max('Charity EIN', limits.charityEin));
    const detail = await charities.getNonprofit(c.get('deps'), clientIpOf(c), ein);
    return c.json(detail satisfies z.infer<typeof nonprofitDetailSchema>);
  })
  .put('/admin/featured-charities', async (c) => {
    requireAdminSession(c);
    const input = await jsonBody(c, updateFeaturedCharitiesSchema);
    const nonprofits = await charities.updateFeaturedCharities(c.get('deps'), clientIpOf(c), input);
    return c.json({ nonprofits } satisfies FeaturedCharities);
  });
