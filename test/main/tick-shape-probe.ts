/**
 * Child process of tick-shape.test.ts (run with --allow-natives-syntax --expose-gc): pins a tick
 * entry, lets major GCs run while no tick is queued, then compares a fresh tick entry's hidden class
 * with the pinned one's. Prints one JSON line.
 */
import { createHook } from 'node:async_hooks';
import { pinnedTickObject, pinTickObjectShape } from '../../src/main/tick-shape.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
// V8 intrinsics are only parsed when the flag is on, so they are compiled at run time.
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

const captureTick = async (): Promise<object | null> => {
  let found: object | null = null;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject' && found === null) found = resource as object;
    },
  }).enable();
  await new Promise<void>((resolve) => process.nextTick(resolve));
  hook.disable();
  return found;
};

const pinnedNow = await pinTickObjectShape();
const pinned = pinnedTickObject();
const again = await pinTickObjectShape(); // idempotent: keeps the first entry
for (let i = 0; i < 4; i++) {
  await new Promise((resolve) => setTimeout(resolve, 1)); // nothing queued on the tick queue here
  gc();
}
const after = await captureTick();
process.stdout.write(
  `${JSON.stringify({
    pinnedNow,
    again,
    stillFirst: pinnedTickObject() === pinned,
    // A real queue entry: its own keys are the async-id symbols plus callback and args.
    keys: pinned ? [...Object.getOwnPropertySymbols(pinned).map(String), ...Object.keys(pinned)] : [],
    sameMapAfterGc: pinned && after ? haveSameMap(pinned, after) : false,
  })}\n`,
);
