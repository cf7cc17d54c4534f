import { describe, expect, it } from 'vitest';
import { Freshness } from '../../src/core/catalog/freshness.ts';
import { DomainError, StoreUnavailableError } from '../../src/core/errors.ts';
import type { DataState, StateStore } from '../../src/core/ports.ts';
import { isDatabaseUnreachable, storeError } from '../../src/storage/postgres/unreachable.ts';

/*
 * The pieces behind "PostgreSQL restarts under load" (postgres-restart.test.ts runs the whole):
 * which errors mean the database cannot be reached, and how the freshness check serves what it
 * holds meanwhile instead of failing every request.
 */

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });

describe('isDatabaseUnreachable: the one list of "the database cannot be reached"', () => {
  it.each([
    ['connection refused', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['connection reset', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a fast stop (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    [
      'a crash (57P02)',
      withCode('terminating connection because of crash of another server process', '57P02'),
    ],
    ['starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['class 08', withCode('connection failure', '08006')],
    ['a broken connection', new Error('Connection terminated unexpectedly')],
    ['the pool timing out', new Error('timeout exceeded when trying to connect')],
    [
      'a client asked again after it broke',
      new Error('Client has encountered a connection error and is not queryable'),
    ],
    [
      'refused on every address',
      new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], 'all failed'),
    ],
    ['a wrapped cause', new Error('Connection failed', { cause: withCode('x', 'ECONNREFUSED') })],
  ])('%s is', (_name, err) => {
    expect(isDatabaseUnreachable(err)).toBe(true);
    const mapped = storeError(err);
    expect(mapped).toBeInstanceOf(StoreUnavailableError);
    expect(mapped).toBeInstanceOf(DomainError);
    const e = mapped as StoreUnavailableError;
    expect(e.code).toBe('service_unavailable');
    expect(e.details?.retryAfterSeconds).toBeGreaterThan(0);
    // The client's words never carry the driver's.
    expect(e.message).not.toContain(err.message);
  });

  it.each([
    ['a unique violation', withCode('duplicate key value violates unique constraint', '23505')],
    ['a serialization failure', withCode('could not serialize access', '40001')],
    ['a syntax error', withCode('syntax error at or near', '42601')],
    ['a plain bug', new TypeError('x is undefined')],
    ['a domain error', new DomainError('conflict', 'exists')],
  ])('%s is not, and passes unchanged', (_name, err) => {
    expect(isDatabaseUnreachable(err)).toBe(false);
    expect(storeError(err)).toBe(err);
  });
});

/** A state store that can be taken away and given back; it always suspects a change. */
class SwitchableStore implements StateStore {
  up = true;
  reads = 0;
  version = 1;
  async read(): Promise<DataState> {
    this.reads++;
    if (!this.up) throw new StoreUnavailableError(new Error('connect ECONNREFUSED'));
    return {
      dataVersion: this.version,
      keysVersion: 1,
      registryVersion: 1,
      dataUpdatedAt: '2026-11-24T00:00:00.000Z',
    };
  }
  externalChangeSuspected(): boolean {
    return true;
  }
}

describe('Freshness while the store is unreachable', () => {
  it('serves the versions last read without waiting, retries in the background, and catches up once back', async () => {
    const store = new SwitchableStore();
    const freshness = await Freshness.start(store);
    const seen: number[] = [];
    freshness.onChange((next) => seen.push(next.dataVersion));
    store.up = false;
    // The first check finds the outage: it resolves (no request fails for it) and keeps the state.
    await expect(freshness.check()).resolves.toBeUndefined();
    expect(freshness.storeUnreachable).toBe(true);
    expect(freshness.state.dataVersion).toBe(1);
    // From then on nobody waits: check() answers null at once, and re-reads are spaced out.
    const readsBefore = store.reads;
    for (let i = 0; i < 1000; i++) expect(freshness.check()).toBeNull();
    expect(store.reads - readsBefore).toBeLessThanOrEqual(1);
    // A write's afterWrite refresh does not fail the write either.
    await expect(freshness.refresh()).resolves.toBeUndefined();
    // Back, with a change made meanwhile (say, by another instance just before the outage).
    store.up = true;
    store.version = 2;
    await new Promise((r) => setTimeout(r, 300));
    expect(freshness.check()).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(freshness.storeUnreachable).toBe(false);
    expect(freshness.state.dataVersion).toBe(2);
    expect(seen).toEqual([2]);
    // And checks are awaited again as usual.
    expect(freshness.check()).toBeInstanceOf(Promise);
  });

  it('a re-read that does not answer (a partition) counts as unreachable after its time limit', async () => {
    const store = new SwitchableStore();
    const freshness = await Freshness.start(store, { readLimitMs: 100 });
    store.read = () => new Promise<DataState>(() => {});
    const started = Date.now();
    await expect(freshness.check()).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(freshness.storeUnreachable).toBe(true);
    expect(freshness.check()).toBeNull();
    expect(freshness.state.dataVersion).toBe(1);
  });

  it('any other failure still reaches the caller that awaits it', async () => {
    const store = new SwitchableStore();
    const freshness = await Freshness.start(store);
    store.read = async () => {
      throw new Error('relation "data_state" does not exist');
    };
    await expect(freshness.check()).rejects.toThrow('does not exist');
    expect(freshness.storeUnreachable).toBe(false);
  });
});
