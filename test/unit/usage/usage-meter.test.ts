import { afterEach, describe, expect, it } from 'vitest';
import { HOUR_MS, ManualClock } from '../../../src/core/clock.ts';
import type { UsageRow, UsageStore } from '../../../src/core/usage/ports.ts';
import { DETACHED_CELL, UsageMeter } from '../../../src/core/usage/usage-meter.ts';

/** 2026-06-01T12:00:00Z. */
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0, 0);
const H0 = T0 / HOUR_MS;
const ALL = (...ids: string[]) => new Set(ids);

/**
 * The meter's own behaviour (cells, bounds, what a flush hands over) against a recording store;
 * the Kysely store itself, both dialects and several meters are in test/storage/usage-store.test.ts.
 */
class RecordingStore implements Pick<UsageStore, 'add' | 'prune'> {
  added: UsageRow[][] = [];
  pruned: number[] = [];
  failing = false;
  async add(rows: readonly UsageRow[]): Promise<void> {
    if (this.failing) throw new Error('database is down');
    this.added.push(rows.map((r) => ({ ...r })));
  }
  async prune(beforeHour: number): Promise<number> {
    this.pruned.push(beforeHour);
    return 0;
  }
  total(keyId: string): { requests: number; limited: number } {
    let requests = 0;
    let limited = 0;
    for (const r of this.added.flat()) {
      if (r.keyId !== keyId) continue;
      requests += r.requests;
      limited += r.limited;
    }
    return { requests, limited };
  }
}

describe('UsageMeter', () => {
  const meters: UsageMeter[] = [];
  const meter = (
    store: RecordingStore | undefined,
    opts: { maxCells?: number; clock?: ManualClock } = {},
  ) => {
    const m = new UsageMeter({
      clock: opts.clock ?? new ManualClock(T0),
      ...(store ? { store: store as unknown as UsageStore } : {}),
      flushIntervalMs: 3_600_000,
      ...(opts.maxCells !== undefined ? { maxCells: opts.maxCells } : {}),
      onError: () => {},
    });
    meters.push(m);
    return m;
  };
  afterEach(async () => {
    for (const m of meters.splice(0)) await m.close();
  });

  it('keeps one cell per key, variant and hour: repeated requests reuse it (nothing allocated)', () => {
    const m = meter(undefined);
    const cell = m.cell('k1', 'b', T0);
    expect(m.cell('k1', 'b', T0 + 59 * 60_000)).toBe(cell);
    expect(m.cell('k1', 'a', T0)).not.toBe(cell);
    expect(cell.endMs).toBe((H0 + 1) * HOUR_MS);
    // A holder compares a request's time with endMs: the next hour is past it.
    expect((H0 + 1) * HOUR_MS >= cell.endMs).toBe(true);
    // The starting cell of a holder is past for any time.
    expect(0 >= DETACHED_CELL.endMs).toBe(true);
    expect(m.size).toBe(2);
  });

  it('counts, refunds and 429s apart; pending() shows them before any flush', () => {
    const m = meter(undefined);
    for (let i = 0; i < 5; i++) m.counted('k1', 'b', T0 + i);
    m.refunded('k1', 'b', T0 + 2);
    m.limited('k1', 'b', T0 + 9);
    expect(m.pending(ALL('k1'))).toEqual([
      { keyId: 'k1', scope: 'b', hour: H0, requests: 4, limited: 1, lastAt: T0 + 9 },
    ]);
    expect(m.pending(ALL('other'))).toEqual([]);
  });

  it('a flush hands each cell over once and zeroes it; the next flush sends only what came since', async () => {
    const store = new RecordingStore();
    const m = meter(store);
    for (let i = 0; i < 3; i++) m.counted('k1', 'a', T0 + i);
    await m.flush();
    expect(store.added).toEqual([
      [{ keyId: 'k1', scope: 'a', hour: H0, requests: 3, limited: 0, lastAt: T0 + 2 }],
    ]);
    expect(m.pending(ALL('k1'))).toEqual([]);
    m.counted('k1', 'a', T0 + 10);
    await m.flush();
    await m.flush(); // nothing new
    expect(store.total('k1')).toEqual({ requests: 4, limited: 0 });
    expect(store.added).toHaveLength(2);
  });

  it('an hour that turns leaves the earlier hour to be written with its own hour', async () => {
    const store = new RecordingStore();
    const m = meter(store);
    m.counted('k1', 'b', T0 + HOUR_MS - 1);
    m.counted('k1', 'b', T0 + HOUR_MS);
    m.counted('k1', 'b', T0 + HOUR_MS + 1);
    // A 304 of the earlier hour's request, answered after the hour turned.
    m.refunded('k1', 'b', T0 + HOUR_MS - 1);
    m.counted('k1', 'b', T0 + HOUR_MS - 5); // the earlier hour again (a clock a little behind)
    await m.flush();
    const rows = store.added.flat().sort((x, y) => x.hour - y.hour);
    expect(rows.map((r) => [r.hour, r.requests])).toEqual([
      [H0, 1],
      [H0 + 1, 2],
    ]);
  });

  it('a failed flush keeps the counts for the next one, added to what came meanwhile', async () => {
    const store = new RecordingStore();
    const m = meter(store);
    for (let i = 0; i < 4; i++) m.counted('k1', 'b', T0 + i);
    m.limited('k1', 'b', T0 + 5);
    store.failing = true;
    await expect(m.flush()).rejects.toThrow('database is down');
    expect(m.pending(ALL('k1'))[0]).toMatchObject({ requests: 4, limited: 1 });
    m.counted('k1', 'b', T0 + 6);
    store.failing = false;
    await m.flush();
    expect(store.total('k1')).toEqual({ requests: 5, limited: 1 });
  });

  it('pending() includes a flush in progress, so nothing disappears while it is written', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = {
      add: async () => gate,
      prune: async () => 0,
    } as unknown as UsageStore;
    const m = new UsageMeter({ clock: new ManualClock(T0), store: slow, flushIntervalMs: 3_600_000 });
    meters.push(m);
    m.counted('k1', 'a', T0);
    const flushing = m.flush();
    await new Promise((r) => setImmediate(r));
    expect(m.pending(ALL('k1'))).toMatchObject([{ requests: 1 }]);
    release();
    await flushing;
    expect(m.pending(ALL('k1'))).toEqual([]);
  });

  it('stays bounded: beyond maxCells counts go to a sink, are reported, and a flush makes room', async () => {
    const store = new RecordingStore();
    const errors: unknown[] = [];
    const m = new UsageMeter({
      clock: new ManualClock(T0),
      store: store as unknown as UsageStore,
      flushIntervalMs: 3_600_000,
      maxCells: 100,
      onError: (e) => errors.push(e),
    });
    meters.push(m);
    for (let i = 0; i < 10_000; i++) m.counted(`key_${i}`, 'b', T0);
    expect(m.size).toBe(100);
    await m.flush();
    // The first hundred were written; the rest were dropped and said so.
    expect(store.added.flat()).toHaveLength(100);
    expect(String(errors[0])).toMatch(/9900 counts were not recorded/);
    // Written cells stay for the hour while in use; idle ones are let go at the next flush.
    expect(m.size).toBe(100);
    await m.flush();
    expect(m.size).toBe(0);
    m.counted('key_late', 'b', T0);
    expect(m.size).toBe(1);
  });

  it('lets go of a finished hour at the flush, and its holder gets a new cell', async () => {
    const clock = new ManualClock(T0);
    const store = new RecordingStore();
    const m = meter(store, { clock });
    const cell = m.cell('k1', 'b', T0);
    cell.requests++;
    cell.lastAt = T0;
    clock.advance(HOUR_MS);
    await m.flush();
    expect(cell.endMs).toBe(-1);
    expect(m.size).toBe(0);
    expect(m.cell('k1', 'b', T0 + 10)).not.toBe(cell);
  });

  it('prunes on its first flush and then once an hour, keeping 90 whole days before today', async () => {
    const clock = new ManualClock(T0);
    const store = new RecordingStore();
    const m = meter(store, { clock });
    await m.flush();
    await m.flush();
    clock.advance(HOUR_MS);
    await m.flush();
    const today = Math.floor(T0 / 86_400_000);
    expect(store.pruned).toEqual([(today - 90) * 24, (today - 90) * 24]);
  });

  it('close() writes what is left', async () => {
    const store = new RecordingStore();
    const m = new UsageMeter({ clock: new ManualClock(T0), store: store as unknown as UsageStore });
    m.counted('k9', 'a', T0);
    await m.close();
    expect(store.total('k9')).toEqual({ requests: 1, limited: 0 });
  });
});
