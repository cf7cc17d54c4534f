import { describe, expect, it } from 'vitest';
import { Turns } from '../../../src/core/coa/turns.ts';

describe('Turns', () => {
  it('resumes one waiter per turn of the event loop, in order, so work queued meanwhile runs between them', async () => {
    const turns = new Turns();
    const log: string[] = [];
    const waiters = [1, 2, 3].map((i) =>
      turns.next().then(() => {
        log.push(`piece ${i}`);
        // What the first piece lets in (a request that arrived while it ran) gets a turn before
        // the third piece; with a plain setImmediate per piece, all three would run first.
        if (i === 1) setImmediate(() => log.push('other work'));
      }),
    );
    await Promise.all(waiters);
    await new Promise((r) => setImmediate(r));
    expect(log).toEqual(['piece 1', 'piece 2', 'other work', 'piece 3']);
  });

  it('a waiter that comes later, with nobody waiting, is resumed at the next turn', async () => {
    const turns = new Turns();
    await turns.next();
    let resumed = false;
    const p = turns.next().then(() => {
      resumed = true;
    });
    expect(resumed).toBe(false);
    await p;
    expect(resumed).toBe(true);
  });
});
