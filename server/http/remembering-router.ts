import type { ErrorHandler } from 'hono';
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';
import type { H, RouterRoute } from 'hono/types';
import type { AppEnv } from './context';
import { type ChainedSteps, chainedHandler } from './handler-chain';

/** What Hono keeps in its router for each route: the handler and the route it was declared as. */
type Route = [H, RouterRoute];

/** A match as remembered: Hono's result, and its steps as one handler when it has several. */
type Remembered = { result: Result<Route>; chained: ChainedSteps | undefined };

/**
 * Hono's own router, remembering what each address it was asked for matched. Some of the API's
 * routes are ambiguous for RegExpRouter (`/api/artists/slug/:slug` beside `/api/artists/:id/update`),
 * so Hono falls back to its trie, whose search over ~100 routes and their middleware was a tenth
 * of an API request's CPU (issue 24). The routes never change once the app is built and a match
 * is only read, so the same address can be answered from memory: the hot ones (the signed-in
 * user, a fundraiser shared around, the landing lists) are asked again and again. Bounded: when
 * full the memory is emptied, so a crawl of random addresses costs at most LIMIT entries.
 *
 * A match of several steps (middleware, then the handler) is given to Hono as one handler that
 * runs them (handler-chain.ts), with `onError` the app's error handler: an answer made at once
 * then reaches @hono/node-server at once.
 */
export class RememberingRouter implements Router<Route> {
  static readonly LIMIT = 2000;
  readonly #router: Router<Route> = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
  /** By method, then address: no key is made by joining the two on every request. */
  readonly #remembered = new Map<string, Map<string, Remembered>>();
  #size = 0;

  constructor(private readonly onError: ErrorHandler<AppEnv>) {}

  get name(): string {
    return `remembering ${this.#router.name}`;
  }

  /** How many addresses it remembers now (at most LIMIT). */
  get size(): number {
    return this.#size;
  }

  add(method: string, path: string, handler: Route): void {
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<Route> {
    let byPath = this.#remembered.get(method);
    let remembered = byPath?.get(path);
    if (remembered === undefined) {
      const result = this.#router.match(method, path);
      const steps = result[0].map(([[step]]) => step);
      remembered = { result, chained: steps.length < 2 ? undefined : chainedHandler(steps, this.onError) };
      if (this.#size >= RememberingRouter.LIMIT) {
        this.#remembered.clear();
        this.#size = 0;
        byPath = undefined;
      }
      if (byPath === undefined) this.#remembered.set(method, (byPath = new Map()));
      byPath.set(path, remembered);
      this.#size++;
    }
    const { result, chained } = remembered;
    if (chained === undefined) return result;
    return result.length === 1
      ? [this.#forRequest(result[0], chained)]
      : [this.#forRequest(result[0], chained), result[1]];
  }

  /**
   * The match's steps as one entry, for this request: Hono runs a match of one entry itself, and
   * that entry, once running, puts back the match's own entries for each step to read its route
   * and parameters from (Hono's request reads this very array, by `routeIndex`).
   */
  #forRequest<P>(entries: [Route, P][], chained: ChainedSteps): [Route, P][] {
    const [[, route], params] = entries[0]!;
    const forRequest: [Route, P][] = [];
    const run: H = (c, notFound) => {
      forRequest.splice(0, 1, ...entries);
      return chained(c, notFound);
    };
    forRequest.push([[run, route], params]);
    return forRequest;
  }
}
