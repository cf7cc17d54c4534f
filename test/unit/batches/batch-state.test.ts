import { describe, expect, it } from 'vitest';
import {
  ageInDays,
  DEFAULT_STALE_AFTER_DAYS,
  resolveBatch,
  resolveBatchLookup,
  testedState,
} from '../../../src/core/batches/batch-state.ts';
import type { BatchRecord } from '../../../src/core/batches/model.ts';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';

const NOW = Date.UTC(2026, 5, 1, 12, 0, 0, 0);
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const approved = (over: Partial<BatchRecord> = {}): BatchRecord => ({
  batchId: 'AB-123',
  status: 'approved',
  vendorSlug: 'alpha',
  vendorName: 'Alpha',
  vendorVerified: true,
  peptideName: 'BPC-157',
  purity: 99.2,
  labName: 'Janoshik',
  testMethod: 'HPLC',
  testedAt: ago(10 * DAY_MS),
  source: 'vendor',
  sourceUrl: 'https://janoshik.com/t/1',
  submittedAt: null,
  ...over,
});
const pending = (over: Partial<BatchRecord> = {}): BatchRecord => ({
  ...approved(),
  status: 'pending',
  purity: null,
  labName: null,
  testMethod: null,
  testedAt: null,
  source: null,
  sourceUrl: null,
  submittedAt: ago(DAY_MS),
  ...over,
});

describe('ageInDays', () => {
  it('counts whole days and never goes negative', () => {
    expect(ageInDays(ago(0), NOW)).toBe(0);
    expect(ageInDays(ago(DAY_MS - 1), NOW)).toBe(0);
    expect(ageInDays(ago(DAY_MS), NOW)).toBe(1);
    expect(ageInDays(ago(150 * DAY_MS + 23 * HOUR_MS), NOW)).toBe(150);
    expect(ageInDays(ago(-5 * DAY_MS), NOW)).toBe(0);
  });
});

describe('resolveBatch', () => {
  it('the default staleness threshold is 150 days', () => {
    expect(DEFAULT_STALE_AFTER_DAYS).toBe(150);
  });

  it('answers a verified batch with every test fact and its age', () => {
    expect(resolveBatch('ab-123', [approved()], NOW)).toEqual({
      state: 'verified',
      batchId: 'AB-123',
      peptideName: 'BPC-157',
      vendorSlug: 'alpha',
      vendorName: 'Alpha',
      vendorVerified: true,
      purity: 99.2,
      lab: 'Janoshik',
      testMethod: 'HPLC',
      testedAt: ago(10 * DAY_MS),
      ageDays: 10,
      source: 'vendor',
      sourceUrl: 'https://janoshik.com/t/1',
    });
  });

  it.each([
    ['exactly 150 days', 150 * DAY_MS, 'verified', 150],
    ['150 days and 23 hours', 150 * DAY_MS + 23 * HOUR_MS, 'verified', 150],
    ['150 days, 23:59:59.999', 151 * DAY_MS - 1, 'verified', 150],
    ['exactly 151 days', 151 * DAY_MS, 'stale', 151],
    ['400 days', 400 * DAY_MS, 'stale', 400],
  ] as const)('a test %s old is %s', (_name, age, state, ageDays) => {
    expect(resolveBatch('x', [approved({ testedAt: ago(age) })], NOW)).toMatchObject({ state, ageDays });
  });

  it('honours a configured staleness threshold', () => {
    expect(resolveBatch('x', [approved({ testedAt: ago(31 * DAY_MS) })], NOW, 30)).toMatchObject({
      state: 'stale',
    });
    expect(resolveBatch('x', [approved({ testedAt: ago(30 * DAY_MS) })], NOW, 30)).toMatchObject({
      state: 'verified',
    });
  });

  it('reports a test dated in the future as verified with age 0', () => {
    expect(resolveBatch('x', [approved({ testedAt: ago(-HOUR_MS) })], NOW)).toMatchObject({
      state: 'verified',
      ageDays: 0,
    });
  });

  it('answers a pending batch with its submission time and no test facts', () => {
    expect(resolveBatch('p-1', [pending({ batchId: 'P-1' })], NOW)).toEqual({
      state: 'pending',
      batchId: 'P-1',
      peptideName: 'BPC-157',
      vendorSlug: 'alpha',
      vendorName: 'Alpha',
      vendorVerified: true,
      submittedAt: ago(DAY_MS),
    });
  });

  it('echoes the requested id, as asked, when nothing matches', () => {
    expect(resolveBatch(' Ab-404 ', [], NOW)).toEqual({ state: 'missing', batchId: ' Ab-404 ' });
  });

  it('ignores rejected records: only rejected means missing', () => {
    const rejected = approved({ status: 'rejected' });
    expect(resolveBatch('AB-123', [rejected], NOW)).toEqual({ state: 'missing', batchId: 'AB-123' });
    expect(resolveBatch('AB-123', [rejected, pending({ vendorSlug: 'zeta' })], NOW)).toMatchObject({
      state: 'pending',
      vendorSlug: 'zeta',
    });
  });

  it('ignores an approved record without a test date', () => {
    expect(resolveBatch('x', [approved({ testedAt: null })], NOW)).toEqual({
      state: 'missing',
      batchId: 'x',
    });
  });

  it('prefers verified over stale over pending, whatever the order of the records', () => {
    const verified = approved({ vendorSlug: 'zz-verified', testedAt: ago(100 * DAY_MS) });
    const stale = approved({ vendorSlug: 'aa-stale', testedAt: ago(200 * DAY_MS) });
    const pend = pending({ vendorSlug: 'aa-pending', submittedAt: ago(0) });
    for (const records of [
      [verified, stale, pend],
      [pend, stale, verified],
      [stale, pend, verified],
    ]) {
      expect(resolveBatch('x', records, NOW)).toMatchObject({ state: 'verified', vendorSlug: 'zz-verified' });
    }
    expect(resolveBatch('x', [pend, stale], NOW)).toMatchObject({ state: 'stale', vendorSlug: 'aa-stale' });
    expect(resolveBatch('x', [stale, pend], NOW)).toMatchObject({ state: 'stale', vendorSlug: 'aa-stale' });
  });

  it('within a state, prefers the newest test or submission', () => {
    const older = approved({ vendorSlug: 'a-old', testedAt: ago(20 * DAY_MS) });
    const newer = approved({ vendorSlug: 'z-new', testedAt: ago(5 * DAY_MS) });
    expect(resolveBatch('x', [older, newer], NOW)).toMatchObject({ vendorSlug: 'z-new', ageDays: 5 });
    expect(resolveBatch('x', [newer, older], NOW)).toMatchObject({ vendorSlug: 'z-new' });
    const staleOld = approved({ vendorSlug: 'a', testedAt: ago(300 * DAY_MS) });
    const staleNew = approved({ vendorSlug: 'b', testedAt: ago(200 * DAY_MS) });
    expect(resolveBatch('x', [staleOld, staleNew], NOW)).toMatchObject({ state: 'stale', vendorSlug: 'b' });
    const p1 = pending({ vendorSlug: 'a', submittedAt: ago(3 * DAY_MS) });
    const p2 = pending({ vendorSlug: 'b', submittedAt: ago(DAY_MS) });
    expect(resolveBatch('x', [p1, p2], NOW)).toMatchObject({ state: 'pending', vendorSlug: 'b' });
  });

  it('breaks exact ties by vendor slug, whatever the order of the records', () => {
    const t = ago(7 * DAY_MS);
    const recs = ['mike', 'alpha', 'zulu'].map((vendorSlug) => approved({ vendorSlug, testedAt: t }));
    expect(resolveBatch('x', recs, NOW)).toMatchObject({ vendorSlug: 'alpha' });
    expect(resolveBatch('x', [...recs].reverse(), NOW)).toMatchObject({ vendorSlug: 'alpha' });
    const pendings = ['mike', 'bravo'].map((vendorSlug) => pending({ vendorSlug, submittedAt: t }));
    expect(resolveBatch('x', pendings, NOW)).toMatchObject({ state: 'pending', vendorSlug: 'bravo' });
    expect(resolveBatch('x', [...pendings].reverse(), NOW)).toMatchObject({ vendorSlug: 'bravo' });
  });

  it('fills absent optional facts of an approved record with empty values', () => {
    expect(resolveBatch('x', [approved({ source: null, sourceUrl: null })], NOW)).toMatchObject({
      source: '',
      sourceUrl: '',
    });
  });
});

describe('testedState: the staleness rule and the moments it flips', () => {
  const TESTED = NOW - 10 * DAY_MS - 5 * HOUR_MS;
  const at = new Date(TESTED).toISOString();

  it('a batch 10 days 5 hours old: verified, age 10, age moves at day 11, turns stale at day 151', () => {
    expect(testedState(at, NOW)).toEqual({
      state: 'verified',
      ageDays: 10,
      ageValidUntil: TESTED + 11 * DAY_MS,
      stateValidUntil: TESTED + 151 * DAY_MS,
    });
  });

  it('the flips are exactly where resolveBatch changes its answer', () => {
    const { ageValidUntil, stateValidUntil } = testedState(at, NOW);
    expect(ageInDays(at, ageValidUntil - 1)).toBe(10);
    expect(ageInDays(at, ageValidUntil)).toBe(11);
    expect(testedState(at, stateValidUntil - 1).state).toBe('verified');
    expect(testedState(at, stateValidUntil).state).toBe('stale');
  });

  it('a stale batch never turns back: stateValidUntil is Infinity; a configured threshold moves the flip', () => {
    expect(testedState(ago(200 * DAY_MS), NOW).stateValidUntil).toBe(Number.POSITIVE_INFINITY);
    expect(testedState(at, NOW, 30).stateValidUntil).toBe(TESTED + 31 * DAY_MS);
  });

  it('a test dated in the future is age 0 until a whole day after it', () => {
    const future = NOW + HOUR_MS;
    expect(testedState(new Date(future).toISOString(), NOW)).toMatchObject({
      ageDays: 0,
      ageValidUntil: future + DAY_MS,
    });
  });
});

describe('resolveBatchLookup: the answer and until when it holds', () => {
  it('a tested answer holds until its ageDays next moves', () => {
    const tested = NOW - 10 * DAY_MS - HOUR_MS;
    const found = resolveBatchLookup('x', [approved({ testedAt: new Date(tested).toISOString() })], NOW);
    expect(found.answer).toMatchObject({ state: 'verified', ageDays: 10 });
    expect(found.validUntil).toBe(tested + 11 * DAY_MS);
    // One millisecond before, the same answer; at the instant, the next day's.
    expect(
      resolveBatchLookup('x', [approved({ testedAt: new Date(tested).toISOString() })], found.validUntil - 1)
        .answer,
    ).toEqual(found.answer);
    expect(
      resolveBatchLookup('x', [approved({ testedAt: new Date(tested).toISOString() })], found.validUntil)
        .answer,
    ).toMatchObject({ ageDays: 11 });
  });

  it('on day 150 the answer holds until the instant it turns stale', () => {
    const tested = NOW - 150 * DAY_MS - HOUR_MS;
    const recs = [approved({ testedAt: new Date(tested).toISOString() })];
    const found = resolveBatchLookup('x', recs, NOW);
    expect(found).toMatchObject({
      answer: { state: 'verified', ageDays: 150 },
      validUntil: tested + 151 * DAY_MS,
    });
    expect(resolveBatchLookup('x', recs, found.validUntil).answer).toMatchObject({
      state: 'stale',
      ageDays: 151,
    });
  });

  it('pending and missing answers hold until the data changes', () => {
    expect(resolveBatchLookup('x', [pending()], NOW).validUntil).toBe(Number.POSITIVE_INFINITY);
    expect(resolveBatchLookup('x', [], NOW).validUntil).toBe(Number.POSITIVE_INFINITY);
  });

  it("a shared number: the winner's clock is the only one that matters", () => {
    // The current record wins; the older current one turns stale first but only falls further behind.
    const newer = approved({ vendorSlug: 'b', testedAt: ago(5 * DAY_MS + HOUR_MS) });
    const older = approved({ vendorSlug: 'a', testedAt: ago(150 * DAY_MS + HOUR_MS) });
    const found = resolveBatchLookup('x', [older, newer], NOW);
    expect(found.answer).toMatchObject({ vendorSlug: 'b', ageDays: 5 });
    expect(found.validUntil).toBe(NOW - HOUR_MS + DAY_MS);
  });
});

describe('resolveBatch never fills a published field with a made-up value', () => {
  it.each([
    ['purity', { purity: null }],
    ['lab', { labName: null }],
    ['testMethod', { testMethod: null }],
  ] as const)('an approved record without %s is no evidence (the import refuses it)', (_f, over) => {
    expect(resolveBatch('x', [approved(over)], NOW)).toEqual({ state: 'missing', batchId: 'x' });
    // ... and does not hide a pending submission of the same number.
    expect(resolveBatch('x', [approved(over), pending({ vendorSlug: 'p' })], NOW)).toMatchObject({
      state: 'pending',
      vendorSlug: 'p',
    });
  });

  it('a pending record without a submission time is no evidence', () => {
    expect(resolveBatch('x', [pending({ submittedAt: null })], NOW)).toEqual({
      state: 'missing',
      batchId: 'x',
    });
  });
});
