import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/core/errors.ts';
import { ImportParser } from '../../../src/core/import/parse-import.ts';
import {
  ACTIONS_LIST_MAX,
  checkActionQuery,
  optionalReason,
  scoreMoveOf,
} from '../../../src/core/operator/actions.ts';
import { ACTOR_MAX, isActor, requireActor } from '../../../src/core/operator/actor.ts';
import type { RecomputeResult } from '../../../src/core/scoring/recompute-result.ts';

/** The longest address the console's sign-in accepts (core/users/emails.ts: 254, local part 64). */
const LONGEST_EMAIL = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(63)}.com`;

const errorOf = (f: () => unknown): DomainError => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('expected a DomainError');
};

describe('decision log rules: reasons', () => {
  it('a reason is trimmed; absent or blank is none', () => {
    expect(optionalReason('  lab never issued it \n')).toBe('lab never issued it');
    expect(optionalReason(undefined)).toBeNull();
    expect(optionalReason(null)).toBeNull();
    expect(optionalReason('   ')).toBeNull();
  });

  it('500 characters (after trimming) are fine; 501 are invalid_parameter naming reason', () => {
    expect(optionalReason(` ${'r'.repeat(500)} `)).toHaveLength(500);
    const e = errorOf(() => optionalReason('r'.repeat(501)));
    expect(e.code).toBe('invalid_parameter');
    expect(e.details).toEqual({ parameter: 'reason' });
    expect(e.message).toBe("Parameter 'reason' must be at most 500 characters long.");
  });
});

describe('decision log rules: reads', () => {
  it('a read asks for 1 to 200 entries and an id to page before', () => {
    expect(checkActionQuery({ limit: 1 })).toEqual({ limit: 1 });
    expect(checkActionQuery({ limit: ACTIONS_LIST_MAX, before: 7 })).toEqual({ limit: 200, before: 7 });
    for (const limit of [0, 201, 1.5, Number.NaN]) {
      expect(errorOf(() => checkActionQuery({ limit })).details).toEqual({ parameter: 'limit' });
    }
    for (const before of [0, -1, 2.5]) {
      expect(errorOf(() => checkActionQuery({ limit: 10, before })).details).toEqual({ parameter: 'before' });
    }
  });

  it("the score move is the vendor's own, and absent when its composite did not move", () => {
    const r: RecomputeResult = {
      vendors: 2,
      updated: 2,
      changes: [
        { slug: 'acme', previous: 70, next: 74, previousPillars: null, nextPillars: null },
        { slug: 'bolt', previous: null, next: 50, previousPillars: null, nextPillars: null },
      ],
    };
    expect(scoreMoveOf(r, 'acme')).toEqual({ previous: 70, next: 74 });
    expect(scoreMoveOf(r, 'bolt')).toEqual({ previous: null, next: 50 });
    expect(scoreMoveOf(r, 'calm')).toBeUndefined();
  });
});

describe('one actor rule: an operator email fits', () => {
  it('1 to 254 printable ASCII characters', () => {
    expect(ACTOR_MAX).toBe(254);
    expect(LONGEST_EMAIL).toHaveLength(254);
    for (const ok of ['a', 'ann', 'Ann O. <ops@example.com>', LONGEST_EMAIL]) expect(isActor(ok)).toBe(true);
    for (const bad of ['', `${LONGEST_EMAIL}x`, 'tab\there', 'é', 'line\nbreak'])
      expect(isActor(bad)).toBe(false);
    expect(requireActor(LONGEST_EMAIL)).toBe(LONGEST_EMAIL);
    const e = errorOf(() => requireActor('x'.repeat(255)));
    expect(e.code).toBe('invalid_parameter');
    expect(e.details).toEqual({ parameter: 'actor' });
  });

  it("an override record's setBy takes the same 254 characters", () => {
    const record = (setBy: string) => ({
      type: 'override',
      vendorSlug: 'acme',
      field: 'coa',
      value: 50,
      reason: 'r',
      setBy,
    });
    const fits = new ImportParser(Date.UTC(2026, 5, 1));
    fits.addValue(record(LONGEST_EMAIL), 1);
    expect(fits.errors).toEqual([]);
    const over = new ImportParser(Date.UTC(2026, 5, 1));
    over.addValue(record(`${LONGEST_EMAIL}x`), 1);
    expect(over.errors.map((e) => e.message).join()).toMatch(/setBy/);
  });
});
