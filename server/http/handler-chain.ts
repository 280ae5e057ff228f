import type { Context, ErrorHandler, MiddlewareHandler, Next } from 'hono';
import type { H } from 'hono/types';
import type { AppEnv } from './context';

// A request's middleware and its handler, run as one handler (issue 24). Hono runs several
// through its compose: an async function per step, each awaiting the next, so even an answer
// made at once becomes a promise per step, and @hono/node-server, handed a promise, takes its
// slower path (a 'close' listener per request, the answer awaited again). That was a tenth of an
// API request's CPU. The router (remembering-router.ts) gives Hono instead one handler per match
// that calls each step as the one before it calls `next`, and answers at once when no step waited,
// as nearly every API request can: better-sqlite3 answers synchronously.
//
// Compose's rules are kept: each step reads its own route's parameters and path (`routeIndex`);
// a step's error goes to the app's error handler where it was thrown, so the steps around it see
// an answer (its access line, its headers); `next` after the last step is Hono's not-found;
// calling `next` twice is an error.

/** A middleware or a handler, as the router holds it. */
type Step = H;

/**
 * A middleware that answers at once when the rest of its chain did (`afterNext`). Hono's type has
 * a middleware answer a promise; Hono itself awaits whatever it is given.
 */
export type PromptMiddleware = (c: Context<AppEnv>, next: Next) => void | Promise<void | Response>;

export const promptMiddleware = (middleware: PromptMiddleware) => middleware as MiddlewareHandler<AppEnv>;

/**
 * Runs `after` once the rest of the chain has answered: at once when it answered at once, as it
 * does inside a chained handler when no later step waits.
 */
export function afterNext(next: Next, after: () => void | Promise<void>): void | Promise<void> {
  const rest: void | Promise<void> = next();
  return rest instanceof Promise ? rest.then(after) : after();
}

/** One match's steps run as one: what the router gives Hono as the match's only handler. */
export type ChainedSteps = (c: Context<AppEnv>, notFound: Next) => Response | undefined | Promise<Response | undefined>;

/**
 * The steps of one match as one handler, with `onError` the app's error handler. The match's own
 * entries must be in the request's match result as it runs (remembering-router.ts puts them back),
 * for `routeIndex` to name each step's route.
 */
export function chainedHandler(steps: readonly Step[], onError: ErrorHandler<AppEnv>): ChainedSteps {
  return (c, notFound) => {
    let lastCalled = -1;
    // Compose answers an error thrown by a step there: the steps before it carry on with the answer.
    const failed = (error: unknown): void | Promise<void> => {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      const answer = onError(error, c);
      if (answer instanceof Promise) {
        return answer.then((res) => {
          c.res = res;
        });
      }
      c.res = answer;
    };
    const answered = (res: unknown): void => {
      if (res instanceof Response && !c.finalized) c.res = res;
    };
    const run = (index: number): void | Promise<void> => {
      if (index <= lastCalled) throw new Error('next() called multiple times');
      lastCalled = index;
      const step = index < steps.length ? steps[index] : index === steps.length ? notFound : undefined;
      if (step === undefined) return;
      // Which of the match's routes `c.req.param()` and `c.req.routePath` read, as compose sets it.
      if (index < steps.length) c.req.routeIndex = index;
      let res: unknown;
      try {
        // Typed as Hono types `next`: a promise. It is one only when a later step waits.
        res = step(c, (() => run(index + 1)) as Next);
      } catch (error) {
        return failed(error);
      }
      if (res instanceof Promise) return res.then(answered, failed);
      answered(res);
    };
    const finished = run(0);
    const answer = () => (c.finalized ? c.res : undefined);
    return finished instanceof Promise ? finished.then(answer) : answer();
  };
}
