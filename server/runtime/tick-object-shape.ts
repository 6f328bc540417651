import { executionAsyncResource } from "node:async_hooks";

/**
 * Keeps one of process.nextTick()'s tick objects alive for the life of the process.
 *
 * Node builds each tick object with an object literal whose first keys are computed
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, … }`), and V8 records, for
 * each such key, only one receiver map or "megamorphic" for good: a second map at any
 * time turns the site megamorphic, and the optimized nextTick() then defines every
 * property through the runtime. Tick objects are short-lived, so a full garbage
 * collection at a moment when none is alive frees the maps of their shape, the next
 * tick object gets new ones, and nextTick() stays on the slow path from then on. Every
 * cached page's answer schedules ticks (the socket write's callback, the response's
 * finish): without this module a hit took about 18% more CPU time once the server had
 * run one full collection (docs/benchmarks/page-cache-hits.md). A tick object kept alive
 * keeps its maps, and the chain back to the literal's, alive.
 *
 * Imported first by the process entries (scripts/start.ts, server/serve.ts), so that it
 * runs before the server's work, and the full collections that come with it, begin.
 */

/** Module scope: held for the life of the process. */
const keptTickObjects: object[] = [];

process.nextTick(() => {
  keptTickObjects.push(executionAsyncResource());
});
