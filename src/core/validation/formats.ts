import { FormatRegistry } from '@sinclair/typebox';

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Also refuses calendar dates that Date.parse would silently roll over (2026-02-30 → March 2). */
export function isIsoDateTime(s: string): boolean {
  const m = ISO_DATE_TIME.exec(s);
  if (!m || Number.isNaN(Date.parse(s))) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d;
}

/**
 * TypeBox knows no string formats until they are registered; the import format and the HTTP
 * schemas share these. Idempotent.
 */
export function registerFormats(): void {
  if (!FormatRegistry.Has('date-time')) {
    FormatRegistry.Set('date-time', isIsoDateTime);
  }
  if (!FormatRegistry.Has('uri')) {
    FormatRegistry.Set('uri', (s) => {
      if (!/^https?:\/\//i.test(s)) return false;
      try {
        new URL(s);
        return true;
      } catch {
        return false;
      }
    });
  }
}

registerFormats();
