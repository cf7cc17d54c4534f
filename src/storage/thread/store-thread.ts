import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThread, nameThisThread } from '../../adapters/threads/this-thread.ts';
import { type OpenedStore, openStore, parseDatabaseUrl } from '../open-store.ts';
import {
  type FromStoreThread,
  isCall,
  STORE_THREAD_NAME,
  type StoreThreadData,
  type ThreadPorts,
  type ToStoreThread,
} from './protocol.ts';
import { sendError } from './sent-error.ts';

/**
 * The CoA upload's database work, in a thread of its own inside `serve` (store-thread-host.ts starts
 * it): its own connection and event loop. On SQLite every query runs synchronously on the thread
 * that makes it, and on the main thread an upload's batch lookup, queued submission (one
 * transaction with the vendor's recomputation) and verdict held every other request behind them
 * for 2–7 ms (docs/performance.md, decision 0025).
 */

if (!parentPort) throw new Error('store-thread.ts is the entry of a worker thread (store-thread-host.ts)');
const port = parentPort;
const data = workerData as StoreThreadData;
const send = (m: FromStoreThread) => port.postMessage(m);

// Lowered before it is named: whoever finds the thread by its name sees its final priority.
const nice = lowerThisThread(data.nice);
nameThisThread(STORE_THREAD_NAME);

let opened: OpenedStore | null = null;
try {
  // The main thread migrated the schema before it started this thread. On PostgreSQL no LISTEN
  // connection: this thread never reads the data state, so it needs no word of others' changes.
  opened = await openStore(parseDatabaseUrl(data.databaseUrl), {
    method: data.method,
    poolSize: data.poolSize,
    migrate: false,
    listen: false,
  });
} catch (e) {
  // The host logs this and refuses calls for a while; the thread ends (nothing holds its loop).
  send({ kind: 'failed', error: sendError(e) });
  port.close();
}
if (opened) serve(opened);

function serve(store: OpenedStore): void {
  const ports: ThreadPorts = { coa: store.coa, batches: store.batches, imports: store.imports };
  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  const run = async (
    id: number,
    target: keyof ThreadPorts,
    method: string,
    args: unknown[],
  ): Promise<void> => {
    try {
      if (!isCall(target, method)) throw new Error(`no such call: ${target}.${method}`);
      const fn = (ports[target] as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method];
      if (typeof fn !== 'function') throw new Error(`no such call: ${target}.${method}`);
      const value = await fn.apply(ports[target], args);
      send({ kind: 'result', id, value });
    } catch (e) {
      send({ kind: 'error', id, error: sendError(e) });
    }
  };

  port.on('message', (m: ToStoreThread) => {
    if (m.kind === 'call') {
      const p = run(m.id, m.target, m.method, m.args);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
      return;
    }
    if (m.kind !== 'stop' || stopping) return;
    stopping = true;
    void (async () => {
      // Calls already sent are answered (messages arrive in order: none comes after 'stop').
      await Promise.all(inFlight);
      await store.close().catch(() => undefined);
      // Nothing else holds the event loop: the thread ends.
      port.close();
    })();
  });

  send({ kind: 'ready', nice });
}
