import { invalidParameter } from '../../core/errors.ts';
import { ACTION_REASON_MAX } from '../../core/operator/actions.ts';

/**
 * Reading the pages' form fields and query parameters (dashboard and console). A form body or query
 * parsed by Fastify is a record of strings, or of arrays when a name repeats; anything but one
 * string is refused. Every refusal is an `invalid_parameter` DomainError naming the field, which the
 * pages' error handler shows as the error page, before any use case runs, so nothing changes. What
 * a value may be (a key name's length, a URL, event types) is the core's rule, not this file's.
 */
export type Fields = Record<string, unknown> | undefined | null;

/** A field as text, trimmed; '' when absent. */
export function optionalText(fields: Fields, name: string, max: number): string {
  const raw = fields?.[name];
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') throw invalidParameter(name, 'must be given once, as text.');
  const t = raw.trim();
  if (t.length > max) throw invalidParameter(name, `must be at most ${max} characters long.`);
  return t;
}

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

/** A field that must be there and say something (a reason, a plan). */
export function requiredText(fields: Fields, name: string, max: number): string {
  const t = optionalText(fields, name, max);
  if (t === '') throw invalidParameter(name, 'is required.');
  return t;
}

/** One of a closed set of values. */
export function oneOf<const T extends string>(fields: Fields, name: string, values: readonly T[]): T {
  const t = requiredText(fields, name, 100);
  if (!(values as readonly string[]).includes(t)) {
    throw invalidParameter(name, `must be one of ${values.join(', ')}.`);
  }
  return t as T;
}

/** A whole number within bounds; null when the field is empty. */
export function optionalWhole(fields: Fields, name: string, min: number, max: number): number | null {
  const t = optionalText(fields, name, 30);
  if (t === '') return null;
  const n = /^\d+$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw invalidParameter(name, `must be a whole number from ${min} to ${max.toLocaleString('en-US')}.`);
  }
  return n;
}

/** A whole number within bounds that must be given. */
export function requiredWhole(fields: Fields, name: string, min: number, max: number): number {
  const n = optionalWhole(fields, name, min, max);
  if (n === null) throw invalidParameter(name, 'is required.');
  return n;
}

/** A decimal number within bounds (a purity); null when the field is empty. */
export function optionalDecimal(fields: Fields, name: string, min: number, max: number): number | null {
  const t = optionalText(fields, name, 30);
  if (t === '') return null;
  const n = /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max) {
    throw invalidParameter(name, `must be a number from ${min} to ${max}.`);
  }
  return n;
}

/** A calendar day `YYYY-MM-DD` (what `<input type="date">` sends); null when empty. */
export function optionalDay(fields: Fields, name: string): string | null {
  const t = optionalText(fields, name, 10);
  if (t === '') return null;
  const d = /^\d{4}-\d{2}-\d{2}$/.test(t) ? new Date(`${t}T00:00:00.000Z`) : null;
  // A date that rolls over (2026-02-30 → March 2) is not the day that was typed.
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== t) {
    throw invalidParameter(name, 'must be a date written YYYY-MM-DD.');
  }
  return t;
}

/** Why an operator did something: required on the console's forms, at most the core's limit. */
export const REASON_MAX = ACTION_REASON_MAX;
export const reasonOf = (fields: Fields): string => requiredText(fields, 'reason', REASON_MAX);

/** A page number of a list (`?page=`), 1 when absent. */
export function pageNumber(fields: Fields, max = 10_000): number {
  const t = text(fields, 'page', 10).trim();
  if (t === '') return 1;
  const n = /^\d+$/.test(t) ? Number(t) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw invalidParameter('page', `must be a whole number from 1 to ${max}.`);
  return n;
}
