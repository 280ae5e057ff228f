import { executionAsyncResource } from 'node:async_hooks';

// Keeps Node's process.nextTick on V8's fast path for the life of the process (issue 24).
//
// Every request makes a few of Node's tick objects (its streams call process.nextTick), each an
// object literal `{ [async_id_symbol], [trigger_async_id_symbol], callback, args }`. V8 creates
// it with one store per property, and the optimized code does each store directly as long as the
// feedback of each store names a single object shape. That feedback holds the shapes weakly, and
// V8 lets a shape go once no object has had it for a couple of full collections: an idle server
// (a quiet minute, the garbage collector's idle-time work) loses the shapes of its tick objects,
// the next tick object makes them anew, and V8, seeing a second shape where it knew one, marks
// each of those stores megamorphic for good. From then on every tick object is built by V8's
// runtime, property by property: 1.5 µs of each API request's CPU here, 7 % of it, and of a bare
// node:http server's too once it has been idle (tests/unit/steady-ticks.test.ts shows both).
//
// One tick object kept alive keeps its shapes alive, so the stores never see a second one.

let kept: object | undefined;

/** Keeps one of Node's tick objects, and with it their shape; call once, at start. */
export function keepTickShapes(): void {
  // Inside a tick's callback, the resource being run is that tick's object.
  process.nextTick(() => {
    kept = executionAsyncResource();
  });
}

/** The tick object kept (for the test). */
export const keptTickObject = (): object | undefined => kept;
