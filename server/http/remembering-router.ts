import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/**
 * Hono's own router, remembering what each address it was asked for matched. Some of the API's
 * routes are ambiguous for RegExpRouter (`/api/artists/slug/:slug` beside `/api/artists/:id/update`),
 * so Hono falls back to its trie, whose search over ~100 routes and their middleware was a tenth
 * of an API request's CPU (issue 24). The routes never change once the app is built and a match
 * is only read, so the same address can be answered from memory: the hot ones (the signed-in
 * user, a fundraiser shared around, the landing lists) are asked again and again. Bounded: when
 * full the memory is emptied, so a crawl of random addresses costs at most LIMIT entries.
 */
export class RememberingRouter<T> implements Router<T> {
  static readonly LIMIT = 2000;
  readonly #router: Router<T> = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
  /** By method, then address: no key is made by joining the two on every request. */
  readonly #remembered = new Map<string, Map<string, Result<T>>>();
  #size = 0;

  get name(): string {
    return `remembering ${this.#router.name}`;
  }

  /** How many addresses it remembers now (at most LIMIT). */
  get size(): number {
    return this.#size;
  }

  add(method: string, path: string, handler: T): void {
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#remembered.get(method);
    let result = byPath?.get(path);
    if (result === undefined) {
      result = this.#router.match(method, path);
      if (this.#size >= RememberingRouter.LIMIT) {
        this.#remembered.clear();
        this.#size = 0;
        byPath = undefined;
      }
      if (byPath === undefined) this.#remembered.set(method, (byPath = new Map()));
      byPath.set(path, result);
      this.#size++;
    }
    return result;
  }
}
