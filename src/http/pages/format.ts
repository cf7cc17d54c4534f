/** Formatters the templates use: one place for how times and numbers read on every page. */

const NUMBER = new Intl.NumberFormat('en-US');

/** 8120 → "8,120". */
export const num = (n: number | null | undefined): string =>
  n === null || n === undefined ? '—' : NUMBER.format(n);

/** An ISO time → "2026-11-24 10:09 UTC" (the service's times are UTC; so are its pages). */
export function time(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '—';
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** An ISO time → "2026-11-24". */
export function day(iso: string | number | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : d.toISOString().slice(0, 10);
}

/** 0.8731 → "87 %". */
export const percent = (x: number | null | undefined): string =>
  x === null || x === undefined ? '—' : `${Math.round(x * 100)} %`;

/** Data for a `<script type="application/json">` block: `<` escaped so no text can end the block. */
export const json = (value: unknown): string =>
  JSON.stringify(value).replaceAll('<', '\\u003c').replaceAll('>', '\\u003e').replaceAll('&', '\\u0026');
