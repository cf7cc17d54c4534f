import { expect, it } from 'vitest';
import { extractFields } from '../../../src/core/coa/extract-fields.ts';
import type { PdfText } from '../../../src/core/coa/model.ts';

it('a document of `verifverif…` runs extracts in milliseconds (no quadratic backtracking)', () => {
  const cell = 'verif'.repeat(60);
  const text: PdfText = {
    pageCount: 1,
    metadata: { producer: null, creator: null, creationDate: null, modDate: null },
    pages: [
      {
        lines: Array.from({ length: 400 }, (_, i) => ({
          y: 800 - i,
          cells: [{ text: cell, x: 10, width: 500 }],
        })),
      },
    ],
  };
  const t0 = performance.now();
  extractFields(text);
  expect(performance.now() - t0).toBeLessThan(500);
});
