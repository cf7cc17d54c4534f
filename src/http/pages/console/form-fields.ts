import { invalidParameter } from '../../../core/errors.ts';

/**
 * Reading the console's form fields and query parameters. A form body or query parsed by Fastify
 * is a record of strings, or of arrays when a name repeats; anything but one string is refused.
 * Every refusal is an `invalid_parameter` DomainError naming the field, which the pages' error
 * handler shows as the error page, before any use case runs, so nothing changes.
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

/** Why an operator did something: required, at most 500 characters (as the CLI and the API). */
export const REASON_MAX = 500;
export const reasonOf = (fields: Fields): string => requiredText(fields, 'reason', REASON_MAX);
