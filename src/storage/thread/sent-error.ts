import { DomainError, type DomainErrorCode, StoreUnavailableError } from '../../core/errors.ts';
import type { SentError } from './protocol.ts';

/** An error thrown in the store thread, as fields postMessage keeps. */
export function sendError(e: unknown): SentError {
  if (e instanceof StoreUnavailableError) {
    return { kind: 'unavailable', message: e.message, ...(e.details ? { details: { ...e.details } } : {}) };
  }
  if (e instanceof DomainError) {
    return {
      kind: 'domain',
      code: e.code,
      message: e.message,
      ...(e.details ? { details: { ...e.details } } : {}),
    };
  }
  const err = e instanceof Error ? e : new Error(String(e));
  return { kind: 'other', message: err.message, ...(err.stack ? { stack: err.stack } : {}) };
}

/** The error again, on the main thread: the core's own classes, so callers handle it as before. */
export function reviveError(s: SentError): Error {
  if (s.kind === 'unavailable') {
    const retry = s.details?.retryAfterSeconds;
    return new StoreUnavailableError(undefined, typeof retry === 'number' ? retry : undefined);
  }
  if (s.kind === 'domain') return new DomainError(s.code as DomainErrorCode, s.message, s.details);
  // A failure, not a refusal: the service answers 500 and logs this (the thread's stack included).
  const e = new Error(`in the CoA store thread: ${s.message}`);
  if (s.stack !== undefined) e.stack = `${e.message}\n--- thread stack ---\n${s.stack}`;
  return e;
}
