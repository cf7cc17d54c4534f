import type { FastifyInstance } from 'fastify';
import { invalidParameter } from '../core/errors.ts';

/** How deep a JSON body is walked; deeper bodies are refused by the schemas anyway. */
const MAX_DEPTH = 32;

/** Whether a string holds U+0000, which no parameter may (the one test, shared with the fast path). */
export const containsNul = (s: string): boolean => s.includes('\u0000');

/** The first place in a value that holds U+0000, as a parameter path, or null. */
function nulAt(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'string') return containsNul(value) ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulAt(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const at = path ? `${path}.${k}` : k;
    if (containsNul(k)) return at;
    const found = nulAt(v, at, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * The path's parameters without a catch-all's `*`: that is the rest of an unknown path, which its
 * route answers 404 (a NUL there named "Parameter '*'", the router's word, in a 400).
 */
function namedParams(params: unknown): unknown {
  if (params === null || typeof params !== 'object' || !Object.hasOwn(params, '*')) return params;
  const { '*': _rest, ...named } = params as Record<string, unknown>;
  return named;
}

/**
 * No string a request carries — path parameter, query parameter or JSON body field — may contain
 * U+0000: PostgreSQL text cannot hold it (the query fails, a 500 there and a silent difference from
 * SQLite), and no field of ours has a use for it. Refused up front with 400 naming the parameter, on
 * every route, before any schema or handler sees the value. Found by the fuzz suite (F4).
 */
export function refuseNulStrings(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const at =
      nulAt(namedParams(request.params), '', 0) ?? nulAt(request.query, '', 0) ?? nulAt(request.body, '', 0);
    if (at === null) return done();
    done(
      invalidParameter(
        at.replaceAll('\u0000', '\\u0000') || 'body',
        'must not contain the NUL character (U+0000).',
      ),
    );
  });
}
