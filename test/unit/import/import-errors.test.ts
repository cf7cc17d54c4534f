import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import type { ImportLineError } from '../../../src/core/import/parse-import.ts';
import { dumpTables } from '../../storage/support.ts';
import { at, type ImportHarness, jl, openImportHarness } from './support.ts';

/** Rows already in the database, so references to them are valid. */
const SEED = [
  jl({ type: 'account', name: 'acme', plan: 'pro' }),
  jl({ type: 'lab', slug: 'janoshik', name: 'Janoshik' }),
  jl({
    type: 'peptide',
    slug: 'bpc-157',
    name: 'BPC-157',
    category: 'healing',
    molecularWeight: '1419.5 g/mol',
  }),
  jl({ type: 'vendor', slug: 'alpha', name: 'Alpha' }),
  jl({
    type: 'review',
    id: 'rev-1',
    vendorSlug: 'alpha',
    rating: 5,
    title: 't',
    body: 'b',
    author: 'a',
    createdAt: '2026-05-01T00:00:00.000Z',
  }),
];

/**
 * Every case's file starts with these lines, so its bad line is line 4: a comment and a blank line
 * count, and the good vendor on line 2 must not be written when the file is refused.
 */
const PREFIX = ['# header', jl({ type: 'vendor', slug: 'must-not-exist', name: 'Nope' }), ''];
const L = PREFIX.length + 1;

const vendor = (extra: Record<string, unknown> = {}) =>
  jl({ type: 'vendor', slug: 'v-new', name: 'V', ...extra });
const price = (extra: Record<string, unknown> = {}) =>
  jl({
    type: 'price',
    vendorSlug: 'alpha',
    peptideSlug: 'bpc-157',
    vialMg: 5,
    source: 'baseline',
    totalUsd: 45,
    inStock: true,
    updatedAt: '2026-05-01T00:00:00.000Z',
    ...extra,
  });
const approved = (extra: Record<string, unknown> = {}) =>
  jl({
    type: 'batch',
    vendorSlug: 'alpha',
    batchId: 'AB-1',
    peptideSlug: 'bpc-157',
    purity: 99,
    lab: 'janoshik',
    testMethod: 'HPLC',
    testedAt: '2026-04-01T00:00:00.000Z',
    status: 'approved',
    ...extra,
  });
const pending = (extra: Record<string, unknown> = {}) =>
  jl({
    type: 'batch',
    vendorSlug: 'alpha',
    batchId: 'P-1',
    peptideSlug: 'bpc-157',
    status: 'pending',
    submittedAt: '2026-05-01T00:00:00.000Z',
    ...extra,
  });
const review = (extra: Record<string, unknown> = {}) =>
  jl({
    type: 'review',
    id: 'rev-new',
    vendorSlug: 'alpha',
    rating: 4,
    title: 't',
    body: 'b',
    author: 'a',
    createdAt: '2026-05-01T00:00:00.000Z',
    ...extra,
  });
const without = (line: string, field: string) => {
  const r = JSON.parse(line) as Record<string, unknown>;
  delete r[field];
  return JSON.stringify(r);
};
const FUTURE = at(DAY_MS);

interface Case {
  name: string;
  /** Lines after PREFIX. */
  lines: string[];
  /** Expected errors: [line, message pattern]; line numbers are of the whole file. */
  errors: [number, RegExp][];
}

const one = (name: string, line: string, message: RegExp): Case => ({
  name,
  lines: [line],
  errors: [[L, message]],
});

const CASES: Case[] = [
  one('not JSON', '{"type": "vendor", "slug": ', /not valid JSON/),
  one('not JSON (single quotes)', "{'type': 'vendor'}", /not valid JSON/),
  one('an array, not an object', '[{"type":"vendor"}]', /must be a JSON object/),
  one('a number, not an object', '42', /must be a JSON object/),
  one('a string, not an object', '"vendor"', /must be a JSON object/),
  one('null, not an object', 'null', /must be a JSON object/),
  one(
    'unknown type',
    jl({ type: 'widget', slug: 'x' }),
    /unknown record type "widget".*expected one of .*vendor/,
  ),
  one('missing type', jl({ slug: 'x', name: 'X' }), /unknown record type/),
  one('type of the wrong case', jl({ type: 'Vendor', slug: 'x', name: 'X' }), /unknown record type "Vendor"/),
  one('missing required field (vendor.name)', jl({ type: 'vendor', slug: 'x' }), /^vendor\.name: .*required/),
  one(
    'missing required field (price.updatedAt)',
    without(price(), 'updatedAt'),
    /^price\.updatedAt: .*required/,
  ),
  one('missing required field (batch.status)', without(pending(), 'status'), /^batch\.status: .*required/),
  one('wrong type (boolean as string)', vendor({ verified: 'yes' }), /^vendor\.verified: expected boolean/),
  one('wrong type (number as string)', price({ vialMg: '5' }), /^price\.vialMg: expected number/),
  one('wrong type (fractional rating)', review({ rating: 4.5 }), /^review\.rating: expected integer/),
  one(
    'wrong type (aliases not an array)',
    jl({ type: 'peptide', slug: 'p', name: 'P', category: 'c', molecularWeight: '1 g/mol', aliases: 'x' }),
    /^peptide\.aliases: expected array/,
  ),
  one(
    'bad enum value (plan)',
    jl({ type: 'account', name: 'x', plan: 'gold' }),
    /^account\.plan: expected one of "free", "pro", "enterprise", "custom"$/,
  ),
  one(
    'bad enum value (batch status)',
    pending({ status: 'done' }),
    /^batch\.status: expected one of "approved", "pending", "rejected"$/,
  ),
  one(
    'bad enum value (price source)',
    price({ source: 'scraped' }),
    /^price\.source: expected one of "baseline", "live"$/,
  ),
  one(
    'bad enum value (override field)',
    jl({ type: 'override', vendorSlug: 'alpha', field: 'vibes', value: 1, reason: 'r' }),
    /^override\.field: expected one of "coa", /,
  ),
  one('out of range (rating 6)', review({ rating: 6 }), /^review\.rating: .*5/),
  one(
    'out of range (override value 101)',
    jl({ type: 'override', vendorSlug: 'alpha', field: 'coa', value: 101, reason: 'r' }),
    /^override\.value: .*100/,
  ),
  one('out of range (purity 100.5)', approved({ purity: 100.5 }), /^batch\.purity: .*100/),
  one('unknown extra field', vendor({ colour: 'red' }), /^vendor\.colour: is not a known field$/),
  one(
    'bad slug (spaces and capitals)',
    jl({ type: 'vendor', slug: 'Bad Slug', name: 'X' }),
    /^vendor\.slug: /,
  ),
  one('bad slug (reference)', approved({ vendorSlug: 'alpha_1' }), /^batch\.vendorSlug: /),
  one(
    'bad timestamp (words)',
    price({ updatedAt: 'yesterday' }),
    /^price\.updatedAt: expected an ISO 8601 timestamp$/,
  ),
  one(
    'bad timestamp (no time zone)',
    price({ updatedAt: '2026-05-01T00:00:00' }),
    /^price\.updatedAt: expected an ISO 8601 timestamp$/,
  ),
  one(
    'bad timestamp (13th month)',
    review({ createdAt: '2026-13-01T00:00:00Z' }),
    /^review\.createdAt: expected an ISO 8601 timestamp$/,
  ),
  one(
    'bad timestamp (30 February)',
    price({ updatedAt: '2026-02-30T00:00:00Z' }),
    /^price\.updatedAt: expected an ISO 8601 timestamp$/,
  ),
  one(
    'bad timestamp in a nullable field',
    approved({ testedAt: 'last week' }),
    /^batch\.testedAt: expected an ISO 8601 timestamp \(or null\)$/,
  ),
  one(
    'bad URL (ftp)',
    jl({ type: 'lab', slug: 'l', name: 'L', verifyUrl: 'ftp://example.com/x' }),
    /^lab\.verifyUrl: expected an http\(s\) URL \(or null\)$/,
  ),
  one(
    'bad URL (not a URL)',
    vendor({ website: 'not a url' }),
    /^vendor\.website: expected an http\(s\) URL \(or null\)$/,
  ),
  one(
    'bad URL (javascript:)',
    approved({ sourceUrl: 'javascript:alert(1)' }),
    /^batch\.sourceUrl: expected an http\(s\) URL \(or null\)$/,
  ),
  ...(['purity', 'lab', 'testMethod', 'testedAt'] as const).map((f) =>
    one(
      `approved batch missing ${f}`,
      without(approved(), f),
      new RegExp(`^batch: an approved batch needs ${f}$`),
    ),
  ),
  one(
    'approved batch with null purity',
    approved({ purity: null }),
    /^batch: an approved batch needs purity$/,
  ),
  one(
    'approved batch missing all four',
    jl({ type: 'batch', vendorSlug: 'alpha', batchId: 'X', peptideSlug: 'bpc-157', status: 'approved' }),
    /^batch: an approved batch needs purity, lab, testMethod, testedAt$/,
  ),
  one(
    'pending batch without submittedAt',
    without(pending(), 'submittedAt'),
    /^batch: a pending batch needs submittedAt$/,
  ),
  one(
    'pending batch with null submittedAt',
    pending({ submittedAt: null }),
    /^batch: a pending batch needs submittedAt$/,
  ),
  one('blank batch number', approved({ batchId: '   ' }), /^batch: batchId is blank$/),
  one('future testedAt', approved({ testedAt: FUTURE }), /^batch: testedAt is in the future$/),
  one('future submittedAt', pending({ submittedAt: FUTURE }), /^batch: submittedAt is in the future$/),
  one('future price updatedAt', price({ updatedAt: FUTURE }), /^price: updatedAt is in the future$/),
  one('future review createdAt', review({ createdAt: FUTURE }), /^review: createdAt is in the future$/),
  one(
    'future reply createdAt',
    jl({ type: 'reply', reviewId: 'rev-1', body: 'b', createdAt: FUTURE }),
    /^reply: createdAt is in the future$/,
  ),
  one(
    'override without reason',
    jl({ type: 'override', vendorSlug: 'alpha', field: 'coa', value: 50 }),
    /^override: an override needs a reason$/,
  ),
  one(
    'override with a blank reason',
    jl({ type: 'override', vendorSlug: 'alpha', field: 'coa', value: 50, reason: '  ' }),
    /^override: an override needs a reason$/,
  ),
  {
    name: 'duplicate vendor (reports the first line)',
    lines: [vendor(), '', vendor({ name: 'Again' })],
    errors: [[L + 2, /^vendor v-new already appears on line 4$/]],
  },
  {
    name: 'duplicate batch number, differing in case and spaces',
    lines: [approved({ batchId: 'AB-1' }), approved({ batchId: ' ab-1 ' })],
    errors: [[L + 1, /^batch alpha\/ab-1 already appears on line 4$/]],
  },
  {
    name: 'duplicate price key',
    lines: [price(), price({ totalUsd: 50 })],
    errors: [[L + 1, /already appears on line 4$/]],
  },
  {
    name: 'duplicate override key, even when one clears',
    lines: [
      jl({ type: 'override', vendorSlug: 'alpha', field: 'coa', value: 5, reason: 'r' }),
      jl({ type: 'override', vendorSlug: 'alpha', field: 'coa', value: null }),
    ],
    errors: [[L + 1, /already appears on line 4$/]],
  },
  {
    name: 'the duplicate of the same line thrice',
    lines: [
      jl({ type: 'account', name: 'dup', plan: 'pro' }),
      jl({ type: 'account', name: 'dup', plan: 'free' }),
      jl({ type: 'account', name: 'dup', plan: 'free' }),
    ],
    errors: [
      [L + 1, /^account dup already appears on line 4$/],
      [L + 2, /^account dup already appears on line 4$/],
    ],
  },
  one('batch → unknown vendor', approved({ vendorSlug: 'ghost' }), /^batch: vendor 'ghost' does not exist/),
  one(
    'batch → unknown peptide',
    approved({ peptideSlug: 'ghost-pep' }),
    /^batch: peptide 'ghost-pep' does not exist/,
  ),
  one('batch → unknown lab', approved({ lab: 'ghost-lab' }), /^batch: lab 'ghost-lab' does not exist/),
  one('price → unknown vendor', price({ vendorSlug: 'ghost' }), /^price: vendor 'ghost' does not exist/),
  one(
    'price → unknown peptide',
    price({ peptideSlug: 'ghost-pep' }),
    /^price: peptide 'ghost-pep' does not exist/,
  ),
  one('review → unknown vendor', review({ vendorSlug: 'ghost' }), /^review: vendor 'ghost' does not exist/),
  one(
    'reply → unknown review',
    jl({ type: 'reply', reviewId: 'rev-404', body: 'b', createdAt: '2026-05-01T00:00:00.000Z' }),
    /^reply: review 'rev-404' does not exist/,
  ),
  one(
    'claim → unknown account',
    jl({ type: 'claim', vendorSlug: 'alpha', account: 'nobody' }),
    /^claim: account 'nobody' does not exist/,
  ),
  one(
    'claim → unknown vendor',
    jl({ type: 'claim', vendorSlug: 'ghost', account: 'acme' }),
    /^claim: vendor 'ghost' does not exist/,
  ),
  one(
    'override → unknown vendor',
    jl({ type: 'override', vendorSlug: 'ghost', field: 'coa', value: null }),
    /^override: vendor 'ghost' does not exist/,
  ),
  {
    name: 'a batch naming an invalid vendor line is dangling too',
    lines: [
      jl({ type: 'vendor', slug: 'half', name: 'Half', verified: 'no' }),
      approved({ vendorSlug: 'half' }),
    ],
    errors: [
      [L, /^vendor\.verified: /],
      [L + 1, /^batch: vendor 'half' does not exist/],
    ],
  },
];

describe('importJsonLines: refused files (sqlite)', () => {
  let h: ImportHarness;
  beforeAll(async () => {
    h = await openImportHarness('sqlite');
    await h.ok(SEED);
  });
  afterAll(async () => h?.close());

  const expectRefused = async (lines: string[], expected: [number, RegExp][]) => {
    const dump = await dumpTables(h.store.kysely);
    const state = await h.store.state.read();
    const result = await h.run(lines);
    expect(result.ok).toBe(false);
    const errors = (result as { errors: ImportLineError[] }).errors;
    expect(errors).toEqual(
      expected.map(([line, message]) => ({ line, message: expect.stringMatching(message) })),
    );
    expect(result.lines).toBe(lines.length);
    // Nothing written: every table and both versions are as they were.
    expect(await dumpTables(h.store.kysely)).toEqual(dump);
    expect(await h.store.state.read()).toEqual(state);
  };

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await expectRefused([...PREFIX, ...c.lines], c.errors);
  });

  it('reports every bad line of a file, in line order, and writes nothing', async () => {
    const lines = [
      '',
      jl({ type: 'reply', reviewId: 'rev-404', body: 'b', createdAt: '2026-05-01T00:00:00.000Z' }), // 2: dangling
      vendor(), // 3: fine
      '{broken', // 4
      '# comment', // 5
      vendor({ name: '' }), // 6: name too short
      price({ source: 'scraped' }), // 7
      approved({ lab: 'ghost-lab', vendorSlug: 'v-new' }), // 8: dangling lab (vendor is in the file)
      jl({ type: 'widget' }), // 9
    ];
    await expectRefused(lines, [
      [2, /review 'rev-404' does not exist/],
      [4, /not valid JSON/],
      [6, /^vendor\.name: /],
      [7, /^price\.source: /],
      [8, /^batch: lab 'ghost-lab' does not exist/],
      [9, /unknown record type/],
    ]);
  });

  it('numbers lines from 1, counting blank lines, comments and the lines after the last record', async () => {
    await expectRefused(['{x'], [[1, /not valid JSON/]]);
    await expectRefused(['', '', '', '{x', '', ''], [[4, /not valid JSON/]]);
  });

  it('reports a dangling reference once per missing target', async () => {
    await expectRefused(
      [approved({ vendorSlug: 'ghost', peptideSlug: 'ghost-pep', lab: 'ghost-lab' })],
      [
        [1, /vendor 'ghost'/],
        [1, /peptide 'ghost-pep'/],
        [1, /lab 'ghost-lab'/],
      ],
    );
  });

  it('still accepts the good records once the bad line is fixed (the seed is intact)', async () => {
    const result = await h.run([...PREFIX, approved()]);
    expect(result).toMatchObject({ ok: true, counts: { vendor: 1, batch: 1 } });
  });
});
