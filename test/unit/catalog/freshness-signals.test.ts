import { describe, expect, it } from 'vitest';
import { Freshness } from '../../../src/core/catalog/freshness.ts';
import type { DataState, StateStore } from '../../../src/core/ports.ts';

/** A state store with a change signal (as the real ones: taken when asked) and reads that may fail. */
class SignalStore implements StateStore {
  version = 1;
  signalled = false;
  reads = 0;
  failNext = false;
  async read(): Promise<DataState> {
    this.reads++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection terminated');
    }
    return {
      dataVersion: this.version,
      keysVersion: 1,
      registryVersion: 1,
      dataUpdatedAt: '2026-11-24T00:00:00.000Z',
    };
  }
  externalChangeSuspected(): boolean {
    const was = this.signalled;
    this.signalled = false;
    return was;
  }
  /** What a committed write of this instance does. */
  commit(): void {
    this.version++;
    this.signalled = true;
  }
}

describe('Freshness and change signals', () => {
  it("a refresh after this instance's own write takes its signal: the next request reads nothing again", async () => {
    const store = new SignalStore();
    const freshness = await Freshness.start(store);
    store.commit();
    await freshness.refresh(); // afterWrite
    expect(freshness.state.dataVersion).toBe(2);
    const reads = store.reads;
    expect(freshness.check()).toBeNull();
    expect(store.reads).toBe(reads);
    // A commit after that refresh is still seen by the next check.
    store.commit();
    await freshness.check();
    expect(freshness.state.dataVersion).toBe(3);
  });

  it('a re-read that failed is tried again by the next check, though its signal was taken', async () => {
    const store = new SignalStore();
    const freshness = await Freshness.start(store);
    store.commit();
    store.failNext = true;
    await expect(freshness.refresh()).rejects.toThrow('connection terminated');
    expect(freshness.state.dataVersion).toBe(1);
    const retry = freshness.check();
    expect(retry).toBeInstanceOf(Promise);
    await retry;
    expect(freshness.state.dataVersion).toBe(2);
    expect(freshness.check()).toBeNull();
  });
});
