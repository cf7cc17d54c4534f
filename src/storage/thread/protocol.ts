import type { RecordWriter } from '../../core/import/write-records.ts';
import type { BatchStore, CoaStore } from '../../core/ports.ts';

/**
 * What the store thread (store-thread.ts) runs for the main thread, and the messages between them.
 * A fixed list: the thread is an adapter for the CoA upload's database work, not a second way into
 * the store.
 */
export const THREAD_CALLS = {
  coa: ['directory', 'findUpload', 'findExtraction', 'insert', 'replace', 'openSubmissions', 'get', 'list'],
  batches: ['findByKey'],
  imports: ['existingKeys', 'applyWithResult'],
} as const satisfies Record<string, readonly string[]>;

/** The ports behind each target, as the thread's own store implements them. */
export interface ThreadPorts {
  coa: CoaStore;
  batches: BatchStore;
  imports: RecordWriter;
}

export type Target = keyof typeof THREAD_CALLS;
export type Method<T extends Target> = (typeof THREAD_CALLS)[T][number] & keyof ThreadPorts[T];
// biome-ignore lint/suspicious/noExplicitAny: the constraint of "any function" in a conditional type
type AnyFn = (...args: any[]) => unknown;
export type Args<T extends Target, M extends Method<T>> = ThreadPorts[T][M] extends AnyFn
  ? Parameters<ThreadPorts[T][M]>
  : never;
export type Result<T extends Target, M extends Method<T>> = ThreadPorts[T][M] extends AnyFn
  ? Awaited<ReturnType<ThreadPorts[T][M]>>
  : never;

export const isCall = (target: string, method: string): boolean =>
  Object.hasOwn(THREAD_CALLS, target) &&
  (THREAD_CALLS[target as Target] as readonly string[]).includes(method);

/** The thread's name in `top -H`, `ps -L` and /proc/PID/task/TID/comm (15 bytes at most). */
export const STORE_THREAD_NAME = 'coa-store';

/** What the host passes the thread in workerData. */
export interface StoreThreadData {
  databaseUrl: string;
  /** The scoring method's parameters the store recomputes with (config.scoring). */
  method: import('../../core/scoring/method.ts').MethodParams;
  /** PostgreSQL: the thread's own pool. */
  poolSize: number;
  /** The thread's nice value; null leaves it at the process's. */
  nice: number | null;
}

/**
 * An error as it crosses the thread boundary: postMessage keeps an Error's message but not its
 * class or its fields, and the core tells a refusal (a DomainError: `conflict` decides an upload
 * again) from a failure by both.
 */
export interface SentError {
  /** 'domain' and 'unavailable' are rebuilt as the core's errors; 'other' becomes a plain Error. */
  kind: 'domain' | 'unavailable' | 'other';
  code?: string;
  message: string;
  details?: Record<string, unknown>;
  /** For the service's log only ('other'): never shown to a client. */
  stack?: string;
}

export type ToStoreThread =
  | { kind: 'call'; id: number; target: Target; method: string; args: unknown[] }
  | { kind: 'stop' };

export type FromStoreThread =
  /** The store is open; `nice` is the thread's priority as the OS reports it (null if unknown). */
  | { kind: 'ready'; nice: number | null }
  /** The store could not be opened: the thread ends after this. */
  | { kind: 'failed'; error: SentError }
  | { kind: 'result'; id: number; value: unknown }
  | { kind: 'error'; id: number; error: SentError };
