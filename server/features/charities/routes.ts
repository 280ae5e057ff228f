import { Hono } from 'hono';
import { limits } from '../../../shared/constants';
import { invalid } from '../../errors';
import type { AppEnv } from '../../http/context';
import * as charities from './service';

// DESIGN.md section 4: the charity directory, served by our own server.
export const charityRoutes = new Hono<AppEnv>()
  .get('/nonprofits/search/:query', (c) => {
    const query = c.req.param('query');
    if (query.length > limits.searchTerm) throw invalid(`Search term cannot exceed ${limits.searchTerm} characters.`);
    return c.json({ nonprofits: charities.searchNonprofits(c.get('deps'), query) });
  })
  .get('/nonprofits/:ein', (c) => {
    const ein = c.req.param('ein');
    if (ein.length > limits.charityEin) throw invalid(`Charity EIN cannot exceed ${limits.charityEin} characters.`);
    return c.json(charities.getNonprofit(c.get('deps'), ein));
  });
