import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../../../src/core/clock.ts';
import { batchKey, type ImportBatch, RECORD_TYPES } from '../../../src/core/import/records.ts';
import { PILLARS } from '../../../src/core/vendors/model.ts';
import { DEMO_ACCOUNT, demoDataset } from '../../../src/seed/demo-dataset.ts';
import { SCORE_OVERRIDE, TIED_VENDORS } from '../../../src/seed/demo-vendors.ts';

import { CHECKS } from './record-checks.ts';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');
const data = demoDataset(NOW);
const CATEGORIES = [
  'healing',
  'growth-hormone',
  'metabolic',
  'cognitive',
  'cosmetic',
  'longevity',
  'immune',
  'sexual-health',
  'sleep',
  'muscle',
];

type BatchState = 'verified' | 'stale' | 'pending' | 'rejected';
const stateOf = (b: ImportBatch['batch'][number], nowMs: number): BatchState =>
  b.status !== 'approved' ? b.status : nowMs - Date.parse(b.testedAt!) > 150 * DAY_MS ? 'stale' : 'verified';

const allTimestamps = (batch: ImportBatch): string[] =>
  RECORD_TYPES.flatMap((t) =>
    (batch[t] as object[]).flatMap((r) =>
      Object.entries(r)
        .filter(([k, v]) => k.endsWith('At') && typeof v === 'string')
        .map(([, v]) => v as string),
    ),
  );

const countBy = <T>(xs: readonly T[], key: (x: T) => string): Map<string, number> => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(key(x), (m.get(key(x)) ?? 0) + 1);
  return m;
};

describe('demoDataset', () => {
  it('is deterministic for a given nowMs', () => {
    expect(demoDataset(NOW)).toEqual(data);
  });

  it('keeps everything but times and batch numbers when nowMs moves', () => {
    const later = NOW + 37 * DAY_MS + 5 * HOUR_MS;
    const other = demoDataset(later);
    for (const t of ['account', 'lab', 'peptide', 'claim', 'override'] as const)
      expect(other[t]).toEqual(data[t]);
    expect(other.vendor.map((v) => v.slug)).toEqual(data.vendor.map((v) => v.slug));
    expect(other.batch.map((b) => stateOf(b, later))).toEqual(data.batch.map((b) => stateOf(b, NOW)));
    expect(other.price.map((p) => p.totalUsd)).toEqual(data.price.map((p) => p.totalUsd));
    expect(other.review.map((r) => r.rating)).toEqual(data.review.map((r) => r.rating));
  });

  it('validates against the import schemas', () => {
    const errors = RECORD_TYPES.flatMap((t) =>
      data[t].flatMap((r) => {
        const first = CHECKS[t].Errors(r).First();
        return first ? [`${t} ${JSON.stringify(r)}: ${first.path} ${first.message}`] : [];
      }),
    );
    expect(errors).toEqual([]);
    for (const t of RECORD_TYPES) for (const r of data[t]) expect(r.type).toBe(t);
  });

  it('has unique natural keys', () => {
    const unique = (keys: string[]) => expect(new Set(keys).size).toBe(keys.length);
    unique(data.account.map((a) => a.name));
    unique(data.lab.map((l) => l.slug));
    unique(data.peptide.map((p) => p.slug));
    unique(data.vendor.map((v) => v.slug));
    unique(data.claim.map((c) => c.vendorSlug));
    unique(data.price.map((p) => `${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}/${p.source}`));
    unique(data.batch.map((b) => `${b.vendorSlug}/${batchKey(b.batchId)}`));
    unique(data.review.map((r) => r.id));
    unique(data.reply.map((r) => r.reviewId));
    unique(data.override.map((o) => `${o.vendorSlug}/${o.field}`));
  });

  it('resolves every reference', () => {
    const vendors = new Set(data.vendor.map((v) => v.slug));
    const peptides = new Set(data.peptide.map((p) => p.slug));
    const labs = new Set(data.lab.map((l) => l.slug));
    const accounts = new Set(data.account.map((a) => a.name));
    const reviews = new Set(data.review.map((r) => r.id));
    for (const c of data.claim) {
      expect(vendors).toContain(c.vendorSlug);
      expect(accounts).toContain(c.account);
    }
    for (const p of data.price) {
      expect(vendors).toContain(p.vendorSlug);
      expect(peptides).toContain(p.peptideSlug);
    }
    const sold = new Set(data.price.map((p) => `${p.vendorSlug}/${p.peptideSlug}`));
    for (const b of data.batch) {
      expect(sold).toContain(`${b.vendorSlug}/${b.peptideSlug}`);
      if (b.lab) expect(labs).toContain(b.lab);
    }
    for (const r of data.review) expect(vendors).toContain(r.vendorSlug);
    for (const r of data.reply) expect(reviews).toContain(r.reviewId);
    for (const o of data.override) expect(vendors).toContain(o.vendorSlug);
  });

  it('puts every timestamp in the past, as ISO 8601 UTC with milliseconds', () => {
    const times = allTimestamps(data);
    expect(times.length).toBeGreaterThan(1000);
    for (const t of times) {
      expect(new Date(t).toISOString()).toBe(t);
      expect(Date.parse(t)).toBeLessThanOrEqual(NOW);
    }
  });

  it('has the demo accounts and claims', () => {
    const byName = new Map(data.account.map((a) => [a.name, a]));
    expect(DEMO_ACCOUNT).toBe('demo');
    expect(byName.get('demo')?.plan).toBe('enterprise');
    expect(byName.get('acme-labs')?.plan).toBe('pro');
    expect(byName.get('free-tier')?.plan).toBe('free');
    expect(byName.get('bigco')).toMatchObject({ plan: 'custom', rateLimitA: 50_000, rateLimitB: 20_000 });
    expect(data.claim.length).toBeGreaterThanOrEqual(13);
    expect(data.claim.length).toBeLessThanOrEqual(17);
    expect(new Set(data.claim.map((c) => c.account)).size).toBeGreaterThanOrEqual(4);
    expect(data.claim.some((c) => c.account === 'demo')).toBe(true);
  });

  it('has real peptides with real weights and aliases', () => {
    expect(data.peptide.length).toBeGreaterThanOrEqual(38);
    expect(data.peptide.length).toBeLessThanOrEqual(45);
    const bySlug = new Map(data.peptide.map((p) => [p.slug, p]));
    expect(bySlug.get('bpc-157')).toMatchObject({ name: 'BPC-157', molecularWeight: '1419.5 g/mol' });
    expect(bySlug.get('bpc-157')?.aliases).toEqual(
      expect.arrayContaining(['Body Protection Compound 157', 'PL 14736']),
    );
    expect(bySlug.get('tb-500')?.aliases).toContain('Thymosin Beta-4');
    expect(bySlug.get('pt-141')?.aliases).toContain('Bremelanotide');
    expect(bySlug.get('semaglutide')?.molecularWeight).toBe('4113.6 g/mol');
    expect(bySlug.get('ghk-cu')?.molecularWeight).toBe('403.9 g/mol');
    for (const p of data.peptide) {
      expect(CATEGORIES).toContain(p.category);
      expect(p.molecularWeight).toMatch(/^\d+\.\d g\/mol$/);
    }
    expect(new Set(data.peptide.map((p) => p.category)).size).toBe(CATEGORIES.length);
  });

  it('mixes listing plans and verification states', () => {
    const vendors = data.vendor;
    expect(vendors.length).toBeGreaterThanOrEqual(55);
    expect(vendors.length).toBeLessThanOrEqual(65);
    const premium = vendors.filter((v) => v.listingPlan === 'premium').length;
    expect(premium / vendors.length).toBeGreaterThan(0.2);
    expect(premium / vendors.length).toBeLessThan(0.3);
    const verified = vendors.filter((v) => v.verified);
    expect(verified.length / vendors.length).toBeGreaterThan(0.65);
    expect(verified.length / vendors.length).toBeLessThan(0.75);
    for (const v of verified) expect(v.verifiedAt).toEqual(expect.any(String));
    expect(vendors.filter((v) => !v.verified && v.pending).length).toBeGreaterThanOrEqual(5);
    expect(vendors.filter((v) => !v.verified && !v.pending).length).toBeGreaterThanOrEqual(3);
    for (const v of vendors) {
      expect(v.website).toBe(`https://${v.slug}.example`);
      expect(v.location).toBeTruthy();
      expect(v.description?.length).toBeGreaterThan(40);
    }
  });

  it('pins pillars only for the tied pair and the composite of one vendor: other scores come from evidence', () => {
    const pinned = countBy(
      data.override.filter((o) => o.field !== 'score'),
      (o) => o.vendorSlug,
    );
    expect([...pinned.keys()].sort()).toEqual([...TIED_VENDORS].sort());
    for (const n of pinned.values()) expect(n).toBe(PILLARS.length);
    for (const f of PILLARS) {
      const values = data.override.filter((o) => o.field === f).map((o) => o.value);
      expect(new Set(values).size).toBe(1);
    }
    expect(data.override.filter((o) => o.field === 'score')).toEqual([
      expect.objectContaining({ vendorSlug: SCORE_OVERRIDE.vendorSlug, value: SCORE_OVERRIDE.value }),
    ]);
    for (const o of data.override) expect(o.reason).toBe('demo seed');
  });

  it('has labs, most trusted', () => {
    expect(data.lab).toHaveLength(8);
    expect(data.lab.filter((l) => l.trusted === false)).toHaveLength(2);
    for (const l of data.lab) expect(l.verifyUrl).toBe(`https://${l.slug}.example/verify`);
  });

  it('has baseline and live prices, some stale, some overriding, some out of stock', () => {
    const perVendor = countBy(
      [...new Set(data.price.map((p) => `${p.vendorSlug}/${p.peptideSlug}`))],
      (k) => k.split('/')[0]!,
    );
    expect(perVendor.size).toBe(data.vendor.length);
    for (const n of perVendor.values()) {
      expect(n).toBeGreaterThanOrEqual(5);
      expect(n).toBeLessThanOrEqual(20);
    }
    const baseline = data.price.filter((p) => p.source === 'baseline');
    const live = data.price.filter((p) => p.source === 'live');
    const combos = new Set(data.price.map((p) => `${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}`));
    expect(live.length / combos.size).toBeGreaterThan(0.25);
    expect(live.length / combos.size).toBeLessThan(0.45);
    expect(baseline.length).toBeGreaterThan(live.length);
    const baselinePrice = new Map(
      baseline.map((p) => [`${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}`, p.totalUsd]),
    );
    const overriding = live.filter((p) => baselinePrice.has(`${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}`));
    expect(overriding.length).toBeGreaterThan(10);
    for (const p of overriding) {
      expect(p.totalUsd).not.toBe(baselinePrice.get(`${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}`));
    }
    expect(live.length - overriding.length).toBeGreaterThan(10);
    const age = (p: { updatedAt: string }) => NOW - Date.parse(p.updatedAt);
    expect(live.filter((p) => age(p) > 72 * HOUR_MS).length).toBeGreaterThan(5);
    expect(live.filter((p) => age(p) <= 72 * HOUR_MS).length).toBeGreaterThan(50);
    expect(baseline.filter((p) => age(p) > 90 * DAY_MS).length).toBeGreaterThan(5);
    expect(baseline.filter((p) => age(p) <= 90 * DAY_MS).length).toBeGreaterThan(50);
    expect(data.price.some((p) => !p.inStock)).toBe(true);
    for (const p of data.price) {
      expect([0.1, 1, 2, 5, 10, 20, 50, 100]).toContain(p.vialMg);
      expect(p.totalUsd).toBeGreaterThanOrEqual(9.99);
      expect(p.totalUsd).toBeLessThan(600);
    }
  });

  it('has several hundred batches in all four lookup states', () => {
    expect(data.batch.length).toBeGreaterThanOrEqual(700);
    expect(data.batch.length).toBeLessThanOrEqual(1200);
    const states = countBy(data.batch, (b) => stateOf(b, NOW));
    for (const s of ['verified', 'stale', 'pending', 'rejected'])
      expect(states.get(s)).toBeGreaterThanOrEqual(10);
    for (const b of data.batch) {
      if (b.status === 'approved') {
        expect(b.purity).toBeGreaterThanOrEqual(95);
        expect(b.purity).toBeLessThanOrEqual(100);
        expect(Math.round(b.purity! * 10)).toBe(b.purity! * 10);
        expect(b.lab && b.testMethod && b.testedAt && b.source && b.sourceUrl).toBeTruthy();
        expect(Date.parse(b.submittedAt!)).toBeGreaterThanOrEqual(Date.parse(b.testedAt!));
        // Well clear of the 150-day edge, so a few minutes of clock skew cannot flip a state.
        const age = NOW - Date.parse(b.testedAt!);
        expect(Math.abs(age - 150 * DAY_MS)).toBeGreaterThan(5 * DAY_MS);
      } else if (b.status === 'pending') {
        expect(b.submittedAt).toEqual(expect.any(String));
        expect(b.purity ?? b.lab ?? b.testMethod ?? b.testedAt).toBeUndefined();
      }
    }
  });

  it('keeps batch numbers unique except one number shared by two vendors', () => {
    const vendorsByKey = new Map<string, Set<string>>();
    for (const b of data.batch) {
      const k = batchKey(b.batchId);
      vendorsByKey.set(k, (vendorsByKey.get(k) ?? new Set()).add(b.vendorSlug));
    }
    const shared = [...vendorsByKey].filter(([, vs]) => vs.size > 1);
    expect(shared).toHaveLength(1);
    expect(shared[0]![1].size).toBe(2);
    const sharedBatches = data.batch.filter((b) => batchKey(b.batchId) === shared[0]![0]);
    expect(new Set(sharedBatches.map((b) => b.peptideSlug)).size).toBe(2);
    // A rejected number appears nowhere else, so it looks up as missing.
    for (const b of data.batch.filter((x) => x.status === 'rejected')) {
      expect(vendorsByKey.get(batchKey(b.batchId))?.size).toBe(1);
    }
  });

  it('uses varied batch number formats, some with spaces and lower case', () => {
    const ids = data.batch.map((b) => b.batchId);
    expect(ids.some((id) => id.includes(' '))).toBe(true);
    expect(ids.some((id) => id !== id.toUpperCase())).toBe(true);
    expect(ids.some((id) => /^[A-Z0-9]+-\d{4}-[A-Z]\d{2}$/.test(id))).toBe(true);
    for (const id of ids) expect(id).toBe(id.trim());
  });

  it('has reviews skewed positive and replies to some of them', () => {
    expect(data.review.length).toBeGreaterThanOrEqual(250);
    expect(data.review.length).toBeLessThanOrEqual(350);
    expect(data.review[0]!.id).toBe('rev-0001');
    const mean = data.review.reduce((s, r) => s + r.rating, 0) / data.review.length;
    expect(mean).toBeGreaterThan(3.5);
    expect(new Set(data.review.map((r) => r.rating)).size).toBe(5);
    expect(new Set(data.review.map((r) => r.author)).size).toBeGreaterThan(50);
    for (const r of data.review) expect(NOW - Date.parse(r.createdAt)).toBeLessThanOrEqual(730 * DAY_MS);
    expect(data.reply.length).toBeGreaterThanOrEqual(30);
    expect(data.reply.length).toBeLessThanOrEqual(50);
    const reviews = new Map(data.review.map((r) => [r.id, r]));
    for (const r of data.reply) {
      expect(Date.parse(r.createdAt)).toBeGreaterThan(Date.parse(reviews.get(r.reviewId)!.createdAt));
    }
  });

  it('passes the import parser, references and semantic checks included', async () => {
    // Loaded lazily: the parser is another module's concern, and this keeps a break there local.
    const { ImportParser } = await import('../../../src/core/import/parse-import.ts');
    const parser = new ImportParser(NOW);
    let line = 0;
    for (const t of RECORD_TYPES) for (const r of data[t]) parser.addLine(JSON.stringify(r), ++line);
    const none = new Set<string>();
    const errors = parser.finish({
      accounts: none,
      vendors: none,
      peptides: none,
      labs: none,
      reviews: none,
    });
    expect(errors).toEqual([]);
  });

  it('rejects a non-finite clock', () => {
    expect(() => demoDataset(Number.NaN)).toThrow(RangeError);
  });
});
