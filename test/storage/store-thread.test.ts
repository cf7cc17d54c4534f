import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Freshness } from '../../src/core/catalog/freshness.ts';
import { DomainError, StoreUnavailableError } from '../../src/core/errors.ts';
import { batchKey } from '../../src/core/import/records.ts';
import type { DataState, StateStore } from '../../src/core/ports.ts';
import { DEFAULT_METHOD } from '../../src/core/scoring/method.ts';
import { STORE_THREAD_NAME } from '../../src/storage/thread/protocol.ts';
import { reviveError, sendError } from '../../src/storage/thread/sent-error.ts';
import { StoreThread } from '../../src/storage/thread/store-thread-host.ts';
import { threadedCoaPorts } from '../../src/storage/thread/threaded-coa-ports.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, importBatch, NOW_ISO, openFreshStore } from './support.ts';

/** The nice value of this process's thread named `name` (Linux), or null when there is none. */
function niceOfThread(name: string): number | null {
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== name) continue;
      // Field 19 of stat, counted after the command name's closing parenthesis.
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return null;
}

/** What a queued CoA upload writes: a pending batch of Acme's. */
const pendingSubmission = (batchId: string) =>
  importBatch([
    {
      type: 'batch',
      vendorSlug: 'acme',
      batchId,
      peptideSlug: 'bpc-157',
      status: 'pending',
      submittedAt: NOW_ISO,
    },
  ]);

const threadOn = (url: string, over: Partial<ConstructorParameters<typeof StoreThread>[0]> = {}) =>
  new StoreThread({ databaseUrl: url, method: DEFAULT_METHOD, poolSize: 2, ...over });

describe.each(DIALECTS)('the CoA store thread (%s)', (dialect) => {
  let fresh: FreshStore;
  let thread: StoreThread;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    await fresh.store.imports.apply(
      importBatch([
        { type: 'lab', slug: 'meridian', name: 'Meridian Analytical', trusted: true, flagged: false },
        {
          type: 'peptide',
          slug: 'bpc-157',
          name: 'BPC-157',
          category: 'healing',
          molecularWeight: '1419.5 g/mol',
          aliases: ['BPC157'],
        },
        { type: 'vendor', slug: 'acme', name: 'Acme Peptides' },
        {
          type: 'batch',
          vendorSlug: 'acme',
          batchId: 'B-1',
          peptideSlug: 'bpc-157',
          status: 'approved',
          purity: 99.2,
          lab: 'meridian',
          testedAt: '2026-05-01',
        },
      ]),
      { nowIso: NOW_ISO, reason: 'test' },
    );
    thread = threadOn(fresh.url);
  });
  afterAll(async () => {
    await thread?.stop();
    await fresh?.close();
  });

  it('answers with what the main thread’s own store answers, on a thread of its own at nice 10', async () => {
    const ports = threadedCoaPorts(thread);
    const records = await ports.batches.findByKey(batchKey('B-1'));
    expect(records.map((b) => [b.vendorSlug, b.status])).toEqual([['acme', 'approved']]);
    expect(records).toEqual(await fresh.store.batches.findByKey(batchKey('B-1')));
    expect(await ports.coa.directory()).toEqual(await fresh.store.coa.directory());
    expect(thread.current).not.toBeNull();
    // Never a higher priority than the suite's own (CI may run it under `nice`).
    const expected = Math.max(10, getPriority(0));
    expect(thread.nice).toBe(expected);
    expect(niceOfThread(STORE_THREAD_NAME)).toBe(expected);
  });

  it('writes through the import path on its own connection: the main thread reads the commit', async () => {
    const ports = threadedCoaPorts(thread);
    const before = await fresh.store.state.read();
    const batch = pendingSubmission('Q-7');
    const { counts } = await ports.writer.applyWithResult(batch, {
      nowIso: NOW_ISO,
      reason: 'CoA upload test',
      expect: { newBatches: [{ vendorSlug: 'acme', batchId: 'Q-7' }] },
    });
    expect(counts).toMatchObject({ batch: 1 });
    expect((await fresh.store.state.read()).dataVersion).toBe(before.dataVersion + 1);
    expect((await fresh.store.batches.findByKey(batchKey('Q-7'))).map((b) => b.status)).toEqual(['pending']);
  });

  it('a refusal crosses as the core’s DomainError, code and message kept; nothing is written', async () => {
    const ports = threadedCoaPorts(thread);
    const before = await fresh.store.state.read();
    const batch = pendingSubmission('B-1');
    const err = await ports.writer
      .applyWithResult(batch, {
        nowIso: NOW_ISO,
        reason: 'CoA upload test',
        expect: { newBatches: [{ vendorSlug: 'acme', batchId: 'B-1' }] },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('conflict');
    expect((err as DomainError).message).toBe("Batch 'B-1' of 'acme' is already approved.");
    expect(await fresh.store.state.read()).toEqual(before);
  });

  it('refuses a call that is not on its list, and goes on serving', async () => {
    const call = thread.call as unknown as (t: string, m: string, ...a: unknown[]) => Promise<unknown>;
    await expect(
      call.call(thread, 'imports', 'apply', importBatch([]), { nowIso: NOW_ISO, reason: 'x' }),
    ).rejects.toThrow(/no such call: imports\.apply/);
    await expect(call.call(thread, 'coa', 'constructor')).rejects.toThrow(/no such call/);
    expect((await threadedCoaPorts(thread).batches.findByKey(batchKey('B-1'))).length).toBe(1);
  });

  it('a thread that ends fails its calls in flight as 503; calls are refused for the delay, then another starts', async () => {
    const errors: string[] = [];
    const t = threadOn(fresh.url, { restartDelayMs: 200, onError: (_e, msg) => errors.push(msg) });
    try {
      // Sent while the thread is still loading its modules: it cannot have answered when it ends.
      const inFlight = t.call('batches', 'findByKey', batchKey('B-1'));
      const first = t.current!;
      await first.terminate();
      await expect(inFlight).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(errors).toContain(
        'the CoA store thread ended; uploads are answered 503 for 200 ms, then it starts again',
      );
      // Within the delay: refused at once, no thread started.
      await expect(t.call('coa', 'openSubmissions', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(t.current).toBeNull();
      await new Promise((r) => setTimeout(r, 250));
      expect(await t.call('coa', 'openSubmissions', 1)).toBe(0);
      expect(t.current).not.toBe(first);
    } finally {
      await t.stop();
    }
  });

  it('at most maxPending calls wait; past it a call is refused at once with service_unavailable', async () => {
    const t = threadOn(fresh.url, { maxPending: 2 });
    try {
      const a = t.call('coa', 'openSubmissions', 1);
      const b = t.call('coa', 'openSubmissions', 1);
      const err = await t.call('coa', 'openSubmissions', 1).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).code).toBe('service_unavailable');
      expect(await Promise.all([a, b])).toEqual([0, 0]);
    } finally {
      await t.stop();
    }
  });

  it('a call past its time limit is answered 503 and the stuck thread is ended', async () => {
    const errors: string[] = [];
    // The thread's start (loading the stores, opening the connection) alone takes longer than 1 ms.
    const t = threadOn(fresh.url, { callTimeLimitMs: 1, onError: (_e, msg) => errors.push(msg) });
    try {
      t.start();
      const first = t.current!;
      const exited = new Promise((r) => first.once('exit', r));
      await expect(t.call('coa', 'openSubmissions', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(errors).toContain('the CoA store thread is stuck; ending it');
      await exited;
      expect(t.current).toBeNull();
    } finally {
      await t.stop();
    }
  });

  it('stop() answers the calls already sent, then ends the thread; later calls are refused', async () => {
    const t = threadOn(fresh.url);
    const sent = t.call('batches', 'findByKey', batchKey('B-1'));
    const stopped = t.stop();
    expect((await sent).length).toBe(1);
    await stopped;
    expect(t.current).toBeNull();
    await expect(t.call('coa', 'openSubmissions', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('a store thread that cannot open its store', () => {
  it('refuses its calls as store-unavailable, then refuses at once rather than start a thread per call', async () => {
    const errors: string[] = [];
    // A database under a plain file cannot be created: the thread's openStore fails (ENOTDIR).
    const dir = mkdtempSync(join(tmpdir(), 'purerank-store-thread-'));
    writeFileSync(join(dir, 'not-a-dir'), '');
    const t = threadOn(`sqlite:${join(dir, 'not-a-dir', 'x.db')}`, {
      onError: (_e, msg) => errors.push(msg),
    });
    try {
      await expect(t.call('coa', 'openSubmissions', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(errors).toContain('the CoA store thread could not open the store');
      const started = performance.now();
      await expect(t.call('coa', 'openSubmissions', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(performance.now() - started).toBeLessThan(100);
      expect(t.current).toBeNull();
    } finally {
      await t.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DIALECTS)('after another connection’s commit, refreshFromNow reads it (%s)', (dialect) => {
  it('a read in flight that began before the commit is not taken for one after it', async () => {
    const fresh = await openFreshStore(dialect);
    try {
      const real = fresh.store.state;
      // The real store's read, held after it has read (it began, and saw the state, before the commit).
      let hold: Promise<void> | null = null;
      const held: StateStore = {
        read: async (): Promise<DataState> => {
          const s = await real.read();
          if (hold) await hold;
          return s;
        },
        externalChangeSuspected: () => real.externalChangeSuspected(),
      };
      const freshness = await Freshness.start(held);
      const before = freshness.state.dataVersion;
      let release = () => {};
      hold = new Promise<void>((r) => {
        release = r;
      });
      const early = freshness.refresh();
      await new Promise((r) => setTimeout(r, 20));
      // Another connection (the store thread's) commits while that read is held.
      const second = await fresh.openSecond();
      await second.imports.apply(importBatch([{ type: 'vendor', slug: 'late', name: 'Late Vendor' }]), {
        nowIso: NOW_ISO,
        reason: 'test',
      });
      hold = null;
      // refresh() hands back the read in flight; refreshFromNow() waits for it and reads again.
      expect(freshness.refresh()).toBe(early);
      const after = freshness.refreshFromNow();
      release();
      await early;
      expect(freshness.state.dataVersion).toBe(before);
      await after;
      expect(freshness.state.dataVersion).toBe(before + 1);
    } finally {
      await fresh.close();
    }
  });
});

describe('errors across the thread boundary (sent-error.ts)', () => {
  it('a DomainError keeps its class, code, message and details; a store outage its Retry-After', () => {
    const refused = reviveError(
      sendError(new DomainError('invalid_parameter', 'bad', { parameter: 'vendor' })),
    );
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      code: 'invalid_parameter',
      message: 'bad',
      details: { parameter: 'vendor' },
    });
    const down = reviveError(sendError(new StoreUnavailableError(undefined, 7)));
    expect(down).toBeInstanceOf(StoreUnavailableError);
    expect((down as StoreUnavailableError).details).toEqual({ retryAfterSeconds: 7 });
  });

  it('any other error is a plain Error (a 500), its text and stack for the log only', () => {
    const e = reviveError(sendError(new TypeError('SQLITE_CORRUPT: database disk image is malformed')));
    expect(e).not.toBeInstanceOf(DomainError);
    expect(e.message).toBe('in the CoA store thread: SQLITE_CORRUPT: database disk image is malformed');
    expect(e.stack).toContain('--- thread stack ---');
  });
});
