import { createHook } from 'node:async_hooks';

/**
 * Keeps one of Node's own `process.nextTick` queue entries ("TickObject") alive for the life of
 * the process, so the hidden classes (V8 maps) of those entries can never be collected.
 *
 * Why (decision 0014): Node 20 builds each tick entry with an object literal whose keys are
 * computed (`{[async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args}`). V8 caches
 * the map of such a literal in feedback that holds it weakly and that goes straight from
 * monomorphic to megamorphic on the first different map. Tick entries live for microseconds, so a
 * major GC that runs when none is queued (after start-up's allocation, or in any idle moment)
 * frees the map; the next entry gets a new one and every later `process.nextTick` in the
 * process defines its properties through the slow runtime path. Node's HTTP stack schedules about
 * five ticks per request, which measured ≈ 3–4 µs per request: a ≈ 20 % lower throughput for a
 * cached read, in a random share of processes (every process, eventually, in production).
 * Holding one entry keeps the map, and with it the fast path, alive.
 *
 * The gain lasts until the process has created 2^31 async ids (then the id field widens from a
 * small integer to a double, which replaces the map once more): days at production rates.
 *
 * Costs nothing per request: the async hook is enabled for a single tick at start-up only.
 */
let pinned: object | null = null;

export function pinTickObjectShape(): Promise<boolean> {
  if (pinned !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const hook = createHook({
      init(_asyncId, type, _triggerAsyncId, resource) {
        if (type === 'TickObject' && pinned === null) pinned = resource;
      },
    });
    hook.enable();
    process.nextTick(() => {
      hook.disable();
      resolve(pinned !== null);
    });
  });
}

/** The entry held, for tests. */
export const pinnedTickObject = (): object | null => pinned;
