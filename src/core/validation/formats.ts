import { FormatRegistry } from '@sinclair/typebox';

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * TypeBox knows no string formats until they are registered; the import format and the HTTP
 * schemas share these. Idempotent.
 */
export function registerFormats(): void {
  if (!FormatRegistry.Has('date-time')) {
    FormatRegistry.Set('date-time', (s) => ISO_DATE_TIME.test(s) && !Number.isNaN(Date.parse(s)));
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
