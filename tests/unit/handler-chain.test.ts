import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../server/http/context';
import { afterNext, promptMiddleware } from '../../server/http/handler-chain';
import { RememberingRouter } from '../../server/http/remembering-router';

// A match's middleware and handler run as one handler (server/http/handler-chain.ts): an answer
// made at once is handed back at once, not as a promise, and everything else is as Hono's compose
// does it: each step's own route and parameters, errors answered where they are thrown, the
// middleware around them carrying on, Hono's not-found after the last step.

type Seen = { step: string; status?: number; route?: string; param?: string };

function app(options: { waitingMiddleware?: boolean } = {}) {
  const seen: Seen[] = [];
  const routes = new Hono<AppEnv>({
    router: new RememberingRouter((error, c) => c.json({ error: error.message }, 418)),
  })
    .use(
      promptMiddleware((c, next) => {
        seen.push({ step: 'outer before' });
        return afterNext(next, () => {
          seen.push({ step: 'outer after', status: c.res.status, route: c.req.routePath, param: c.req.param('id') });
        });
      }),
    )
    // A middleware that waits only when told to (a body to read, say); otherwise it passes on at once.
    .use((c, next) =>
      options.waitingMiddleware ? new Promise((resolve) => setTimeout(resolve, 1)).then(next) : next(),
    )
    .get('/things/:id', (c) => c.json({ id: c.req.param('id') }))
    .get('/thrown/:id', () => {
      throw new Error('thrown at once');
    })
    .get('/rejected/:id', async () => {
      await Promise.resolve();
      throw new Error('thrown later');
    })
    .get('/twice/:id', async (c, next) => {
      await next();
      await next();
      return c.text('never');
    })
    // Matched by every address after its own route, as the API's catch-all is: never reached.
    .get('/things/*', (c) => c.text('the catch-all', 404));
  return { routes, seen };
}

/** The app's answer to a GET of `path`, and whether it came at once. */
async function get(routes: Hono<AppEnv>, path: string) {
  const answer = routes.fetch(new Request(`http://localhost${path}`));
  return { atOnce: !(answer instanceof Promise), response: await answer };
}

describe('a match run as one handler', () => {
  it('answers at once when no step waits, and with a promise when one does, the same answer', async () => {
    const prompt = app();
    const first = await get(prompt.routes, '/things/7');
    expect(first.atOnce).toBe(true);
    expect(await first.response.json()).toEqual({ id: '7' });
    expect(prompt.seen).toEqual([
      { step: 'outer before' },
      { step: 'outer after', status: 200, route: '/things/:id', param: '7' },
    ]);

    const waiting = app({ waitingMiddleware: true });
    const later = await get(waiting.routes, '/things/7');
    expect(later.atOnce).toBe(false);
    expect(await later.response.json()).toEqual({ id: '7' });
    expect(waiting.seen).toEqual(prompt.seen);
  });

  it("answers an error with the app's error handler where it was thrown, and the middleware around it see that answer", async () => {
    for (const path of ['/thrown/1', '/rejected/2']) {
      const { routes, seen } = app();
      const { response } = await get(routes, path);
      expect(response.status).toBe(418);
      expect(await response.json()).toEqual({ error: path === '/thrown/1' ? 'thrown at once' : 'thrown later' });
      expect(seen.at(-1)).toMatchObject({ step: 'outer after', status: 418, param: path.slice(-1) });
    }
    const { response: once } = await get(app().routes, '/thrown/3');
    expect(once.status).toBe(418);
  });

  it("refuses a step that calls next twice, and gives an address without a handler Hono's not-found", async () => {
    const { routes, seen } = app();
    const twice = await get(routes, '/twice/1');
    expect(twice.response.status).toBe(418);
    expect(await twice.response.json()).toEqual({ error: 'next() called multiple times' });

    const missing = await get(routes, '/nowhere');
    expect(missing.response.status).toBe(404);
    expect(seen.at(-1)).toMatchObject({ step: 'outer after', status: 404 });
  });
});
