import { describe, expect, it } from 'vitest';
import { Freshness } from '../../../src/core/catalog/freshness.ts';
import type { DataState, StateStore } from '../../../src/core/ports.ts';

/** A state store whose reads fail after the first (the database went away), and always suspects a change. */
class FlakyStore implements StateStore {
  reads = 0;
  async read(): Promise<DataState> {
    if (this.reads++ > 0) throw new Error('connection terminated');
    return { dataVersion: 1, keysVersion: 1, registryVersion: 1, dataUpdatedAt: '2026-11-24T00:00:00.000Z' };
  }
  externalChangeSuspected(): boolean {
    return true;
  }
}

describe('Freshness when the store cannot be read', () => {
  it('a probe that drops the refresh leaves no unhandled rejection; a caller that awaits sees the error', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const freshness = await Freshness.start(new FlakyStore());
      // The fast path's probe: it declines and never awaits what check() returned.
      expect(freshness.check()).toBeInstanceOf(Promise);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      // A guard that awaits the refresh gets the failure (and answers it as a 500).
      await expect(freshness.check()).rejects.toThrow('connection terminated');
      expect(freshness.state.dataVersion).toBe(1);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
