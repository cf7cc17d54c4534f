import { describe, expect, it } from 'vitest';
import { EMPTY_FIELDS } from '../../../src/core/coa/model.ts';
import { sanitizeFields } from '../../../src/core/coa/sanitize.ts';

describe('extracted fields are made safe to show', () => {
  it('drops terminal escapes, C1 controls and bidi overrides; keeps the text', () => {
    const f = sanitizeFields({
      ...EMPTY_FIELDS,
      lab: '\u001b[2J\u001b[H\u001b]0;owned\u0007Meridian Analytical',
      client: 'Acme\u202e Peptides\u2066',
      batch: '  LOT\u0085 5673 ',
      testDate: { iso: '2026-03-12', text: '12\u0000 Mar 2026', ambiguous: false },
      compound: '\u0007\u0008',
    });
    expect(f.lab).toBe('[2J[H]0;ownedMeridian Analytical');
    expect(f.client).toBe('Acme Peptides');
    expect(f.batch).toBe('LOT 5673');
    expect(f.testDate?.text).toBe('12 Mar 2026');
    // Nothing left is nothing stated.
    expect(f.compound).toBeNull();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting their absence
    expect(JSON.stringify(f)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  });

  it('caps every text at 200 characters', () => {
    expect(sanitizeFields({ ...EMPTY_FIELDS, lab: 'x'.repeat(5000) }).lab).toHaveLength(200);
  });
});
