import type { FastifyRequest } from 'fastify';
import type { Plan } from '../../../core/accounts/model.ts';
import { invalidParameter } from '../../../core/errors.ts';
import type { User } from '../../../core/users/model.ts';

/**
 * Reading the dashboard's form fields and query parameters. A body or query parsed by Fastify is a
 * record of strings, or of arrays where a name repeats; a field that should be one string and is
 * not is refused as `invalid_parameter` naming it (the error page), before any use case runs.
 * What a value may be (a key name's length, a URL, event types) is the core's rule, not this file's.
 */
export type Fields = Record<string, unknown> | undefined | null;

/** A field as text, untrimmed; '' when absent. `max` only bounds what is handed on. */
export function text(fields: Fields, name: string, max: number): string {
  const raw = fields?.[name];
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw invalidParameter(name, 'must be given once, as text.');
  if (raw.length > max) throw invalidParameter(name, `must be at most ${max} characters long.`);
  return raw;
}

/** A field that repeats (checkboxes of one name): every value, in order. */
export function list(fields: Fields, name: string, maxItems: number, maxEach: number): string[] {
  const raw = fields?.[name];
  if (raw === undefined || raw === null) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  if (values.length > maxItems) throw invalidParameter(name, `has more than ${maxItems} values.`);
  return values.map((v) => {
    if (typeof v !== 'string' || v.length > maxEach)
      throw invalidParameter(name, 'has a value that is not one of the choices.');
    return v;
  });
}

/** One of a closed set of values. */
export function oneOf<const T extends string>(fields: Fields, name: string, values: readonly T[]): T {
  const t = text(fields, name, 100).trim();
  if (!(values as readonly string[]).includes(t))
    throw invalidParameter(name, `must be one of ${values.join(', ')}.`);
  return t as T;
}

/** A page number of a list (`?page=`), 1 when absent. */
export function pageNumber(fields: Fields, max = 10_000): number {
  const t = text(fields, 'page', 10).trim();
  if (t === '') return 1;
  const n = /^\d+$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw invalidParameter('page', `must be a whole number from 1 to ${max}.`);
  return n;
}

/** The signed-in member and their account: the area's guard has made sure both are there. */
export function memberOf(request: FastifyRequest): {
  user: User;
  account: { id: number; name: string; plan: Plan };
} {
  const user = request.signedIn?.user;
  if (!user?.account) throw new Error('dashboard page reached without a signed-in member');
  return { user, account: user.account };
}
