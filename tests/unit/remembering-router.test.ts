import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { RememberingRouter } from '../../server/http/remembering-router';

// The app's router (server/http/remembering-router.ts) answers an address it has seen from memory:
// the same handlers and parameters as the first time, for routes RegExpRouter refuses too.

function app() {
  const seen: string[] = [];
  const routes = new Hono({ router: new RememberingRouter((error, c) => c.text(error.message, 500)) })
    .use('/api/*', async (c, next) => {
      seen.push(c.req.path);
      await next();
    })
    .get('/api/artists/slug/:slug', (c) => c.json({ route: 'slug', slug: c.req.param('slug') }))
    .get('/api/artists/:id', (c) => c.json({ route: 'id', id: c.req.param('id') }))
    .patch('/api/artists/:id/update', (c) => c.json({ route: 'update', id: c.req.param('id') }));
  return { routes, seen, router: routes.router as RememberingRouter };
}

describe('the remembering router', () => {
  it('matches an address the same way every time, middleware included', async () => {
    const { routes, seen } = app();
    for (let round = 0; round < 3; round++) {
      expect(await (await routes.request('/api/artists/slug/june')).json()).toEqual({ route: 'slug', slug: 'june' });
      expect(await (await routes.request('/api/artists/7')).json()).toEqual({ route: 'id', id: '7' });
      expect(await (await routes.request('/api/artists/slug/update', { method: 'PATCH' })).json()).toEqual({
        route: 'update',
        id: 'slug',
      });
      expect((await routes.request('/api/artists/7', { method: 'DELETE' })).status).toBe(404);
    }
    expect(seen).toHaveLength(12);
  });

  it('gives each address its own parameters, however many it has seen, and remembers a bounded number', async () => {
    const { routes, router } = app();
    for (let id = 0; id < RememberingRouter.LIMIT * 1.5; id += 97) {
      expect(await (await routes.request(`/api/artists/${id}`)).json()).toEqual({ route: 'id', id: String(id) });
    }
    for (let id = 0; id < RememberingRouter.LIMIT * 2 + 10; id++) {
      await routes.request(`/api/artists/${id}`);
      expect(router.size).toBeLessThanOrEqual(RememberingRouter.LIMIT);
    }
    expect(await (await routes.request('/api/artists/5')).json()).toEqual({ route: 'id', id: '5' });
  });
});
