import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import {
  batchKey,
  emptyImportBatch,
  type ImportBatch,
  type PriceRecord,
  RECORD_TYPES,
  type RecordType,
} from '../../../src/core/import/records.ts';
import {
  OVERRIDE_EVERY,
  REVIEWS_PER_VENDOR,
  type ScaleOptions,
  scaleBatchId,
  scaleDataset,
  scaleVendorHasOverride,
} from '../../../src/seed/scale-dataset.ts';

import { CHECKS } from './record-checks.ts';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');
const SMALL: ScaleOptions = { vendors: 50, batches: 1000, peptides: 200, reviews: 120, seed: 7 };
const CHUNK = 100;
const chunks = [...scaleDataset(SMALL, NOW, CHUNK)];

const merge = (parts: ImportBatch[]): ImportBatch => {
  const all = emptyImportBatch();
  for (const p of parts) for (const t of RECORD_TYPES) (all[t] as object[]).push(...p[t]);
  return all;
};
const all = merge(chunks);
/** A listing's identity (the prices table's key). */
const listing = (p: PriceRecord) => `${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}/${p.source}`;
/** The current price records: each listing's last record (its earlier versions come first). */
const current = [...new Map(all.price.map((p) => [listing(p), p])).values()];
/** Orders price records by listing, then time. */
const byListing = (a: PriceRecord, b: PriceRecord) =>
  listing(a).localeCompare(listing(b)) || a.updatedAt.localeCompare(b.updatedAt);
/** Enough vendors and batches for shares and spreads to mean something. */
const BIG: ScaleOptions = { vendors: 600, batches: 60_000, peptides: 300, seed: 3 };
const big = merge([...scaleDataset(BIG, NOW)]);

describe('scaleDataset', () => {
  it('generates exact counts', () => {
    expect(all.lab).toHaveLength(20);
    expect(all.peptide).toHaveLength(200);
    expect(all.vendor).toHaveLength(50);
    // One vendor in OVERRIDE_EVERY (here vendor 7 alone).
    expect(all.override).toHaveLength(1);
    expect(all.batch).toHaveLength(1000);
    expect(all.review).toHaveLength(120);
    expect(all.account).toHaveLength(0);
    // Each vendor lists 2–6 peptides, one baseline price each.
    const listed = new Map<string, number>();
    for (const p of current.filter((x) => x.source === 'baseline'))
      listed.set(p.vendorSlug, (listed.get(p.vendorSlug) ?? 0) + 1);
    expect(listed.size).toBe(50);
    for (const n of listed.values()) expect(n).toBeGreaterThanOrEqual(2);
    for (const n of listed.values()) expect(n).toBeLessThanOrEqual(6);
  });

  it(`generates ${REVIEWS_PER_VENDOR} reviews per vendor unless told otherwise`, () => {
    const reviews = (o: ScaleOptions) => [...scaleDataset(o, NOW, 500)].flatMap((c) => c.review).length;
    expect(reviews({ vendors: 30, batches: 10, peptides: 20 })).toBe(30 * REVIEWS_PER_VENDOR);
    expect(reviews({ vendors: 30, batches: 10, peptides: 20, reviews: 0 })).toBe(0);
    expect(reviews({ vendors: 30, batches: 10, peptides: 20, reviews: 7 })).toBe(7);
  });

  it('streams in chunks of at most chunkSize, in dependency order', () => {
    const batchChunks = chunks.filter((c) => c.batch.length > 0);
    expect(batchChunks).toHaveLength(10);
    for (const c of batchChunks) expect(c.batch.length).toBeLessThanOrEqual(CHUNK);
    for (const c of chunks) {
      expect(c.peptide.length).toBeLessThanOrEqual(CHUNK);
      expect(c.vendor.length).toBeLessThanOrEqual(CHUNK);
      expect(c.price.length).toBeLessThanOrEqual(CHUNK);
      expect(c.review.length).toBeLessThanOrEqual(CHUNK);
    }
    const span = (t: RecordType) => {
      const idx = chunks.flatMap((c, i) => (c[t].length > 0 ? [i] : []));
      return [Math.min(...idx), Math.max(...idx)] as const;
    };
    const order: RecordType[] = ['peptide', 'vendor', 'price', 'batch', 'review'];
    for (let k = 1; k < order.length; k++) expect(span(order[k]!)[0]).toBeGreaterThan(span(order[k - 1]!)[1]);
    expect(span('lab')[0]).toBe(0);
    expect(span('override')).toEqual(span('vendor'));
  });

  it('never builds everything up front', () => {
    const gen = scaleDataset({ vendors: 10, batches: 1_000_000_000 }, NOW, 1000);
    const started = performance.now();
    const first = [gen.next(), gen.next(), gen.next(), gen.next(), gen.next()];
    expect(performance.now() - started).toBeLessThan(2000);
    expect(first.every((r) => !r.done)).toBe(true);
    gen.return(undefined);
  });

  it('is deterministic, and the seed matters', () => {
    expect(merge([...scaleDataset(SMALL, NOW, CHUNK)])).toEqual(all);
    // Another chunk size writes the same records; only the order of price versions across listings moves.
    const other333 = merge([...scaleDataset(SMALL, NOW, 333)]);
    expect({ ...other333, price: [] }).toEqual({ ...all, price: [] });
    expect([...new Map(other333.price.map((p) => [listing(p), p])).values()]).toEqual(current);
    expect([...other333.price].sort(byListing)).toEqual([...all.price].sort(byListing));
    const other = merge([...scaleDataset({ ...SMALL, seed: 8 }, NOW, CHUNK)]);
    expect(other.batch.map((b) => b.vendorSlug)).not.toEqual(all.batch.map((b) => b.vendorSlug));
    expect(other.batch.map((b) => b.batchId)).toEqual(all.batch.map((b) => b.batchId));
  });

  it('validates against the import schemas', () => {
    const errors = RECORD_TYPES.flatMap((t) =>
      all[t].flatMap((r) => {
        const first = CHECKS[t].Errors(r).First();
        return first ? [`${t} ${JSON.stringify(r)}: ${first.path} ${first.message}`] : [];
      }),
    );
    expect(errors).toEqual([]);
  });

  it('resolves every reference and keeps natural keys unique', () => {
    const vendors = new Set(all.vendor.map((v) => v.slug));
    const peptides = new Set(all.peptide.map((p) => p.slug));
    const labs = new Set(all.lab.map((l) => l.slug));
    expect(vendors.size).toBe(all.vendor.length);
    expect(peptides.size).toBe(all.peptide.length);
    const sold = new Set(all.price.map((p) => `${p.vendorSlug}/${p.peptideSlug}`));
    for (const p of all.price) {
      expect(vendors).toContain(p.vendorSlug);
      expect(peptides).toContain(p.peptideSlug);
    }
    for (const b of all.batch) {
      expect(sold).toContain(`${b.vendorSlug}/${b.peptideSlug}`);
      if (b.lab) expect(labs).toContain(b.lab);
    }
    for (const r of all.review) expect(vendors).toContain(r.vendorSlug);
    for (const o of all.override) expect(vendors).toContain(o.vendorSlug);
    // A listing is written once per chunk (its earlier versions in chunks before its current record).
    for (const c of chunks) expect(new Set(c.price.map(listing)).size).toBe(c.price.length);
    expect(current.length).toBeLessThan(all.price.length);
    expect(new Set(all.review.map((r) => r.id)).size).toBe(all.review.length);
  });

  it('leaves scores to the evidence: a reasoned override for one vendor in 200, no more', () => {
    expect(all.override.map((o) => o.vendorSlug)).toEqual([all.vendor[7]!.slug]);
    const o = big.override;
    expect(o.length).toBe(Math.ceil((BIG.vendors - 7) / OVERRIDE_EVERY));
    for (const r of o) {
      expect(r.reason?.trim()).toBeTruthy();
      expect(r.value).not.toBeNull();
    }
    expect(new Set(o.map((r) => r.field)).has('score')).toBe(true);
    expect(o.some((r) => r.field !== 'score')).toBe(true);
    const idx = new Map(big.vendor.map((v, i) => [v.slug, i]));
    for (const r of o) expect(scaleVendorHasOverride(idx.get(r.vendorSlug)!)).toBe(true);
  });

  it('gives most vendors recent approved batches from a mix of labs, and varies them', () => {
    const labs = new Map(big.lab.map((l) => [l.slug, l.trusted === true]));
    expect([...labs.values()].filter(Boolean).length).toBeGreaterThan(0);
    expect([...labs.values()].filter((t) => !t).length).toBeGreaterThan(0);
    const per = new Map<string, { approved: number; recent: number; trusted: number; urls: number }>();
    for (const v of big.vendor) per.set(v.slug, { approved: 0, recent: 0, trusted: 0, urls: 0 });
    for (const b of big.batch) {
      if (b.status !== 'approved') continue;
      const e = per.get(b.vendorSlug)!;
      e.approved++;
      if (NOW - Date.parse(b.testedAt!) <= 150 * DAY_MS) e.recent++;
      if (labs.get(b.lab!)) e.trusted++;
      if (b.sourceUrl) e.urls++;
    }
    const stats = [...per.values()];
    const withRecent = stats.filter((e) => e.recent > 0).length / stats.length;
    expect(withRecent).toBeGreaterThan(0.85);
    // Newcomers (about 2%): nothing approved yet, so unscored.
    const none = stats.filter((e) => e.approved === 0).length / stats.length;
    expect(none).toBeGreaterThan(0.005);
    expect(none).toBeLessThan(0.05);
    // Shares of trusted labs and public CoA links differ from vendor to vendor.
    const shares = (f: (e: (typeof stats)[number]) => number) =>
      stats.filter((e) => e.approved >= 20).map((e) => f(e) / e.approved);
    for (const xs of [shares((e) => e.trusted), shares((e) => e.urls)]) {
      expect(Math.min(...xs)).toBeLessThan(0.45);
      expect(Math.max(...xs)).toBeGreaterThan(0.8);
    }
    // Activity is skewed: some vendors have many times the median number of batches.
    const count = new Map<string, number>();
    for (const b of big.batch) count.set(b.vendorSlug, (count.get(b.vendorSlug) ?? 0) + 1);
    const counts = [...count.values()].sort((a, b) => a - b);
    expect(counts.at(-1)!).toBeGreaterThan(3 * counts[counts.length >> 1]!);
  });

  it('gives vendors different purity levels and ratings', () => {
    const byVendor = <T>(
      items: readonly T[],
      vendor: (x: T) => string,
      value: (x: T) => number | null | undefined,
    ) => {
      const out = new Map<string, number[]>();
      for (const x of items) {
        const v = value(x);
        if (v === null || v === undefined) continue;
        const list = out.get(vendor(x));
        if (list) list.push(v);
        else out.set(vendor(x), [v]);
      }
      return out;
    };
    const means = (m: Map<string, number[]>, min: number) =>
      [...m.values()].filter((xs) => xs.length >= min).map((xs) => xs.reduce((s, x) => s + x, 0) / xs.length);
    const purity = byVendor(
      big.batch,
      (b) => b.vendorSlug,
      (b) => b.purity,
    );
    const levels = means(purity, 20);
    expect(Math.max(...levels) - Math.min(...levels)).toBeGreaterThan(2);
    expect(Math.max(...[...purity.values()].flat())).toBeLessThanOrEqual(100);
    const stars = means(
      byVendor(
        big.review,
        (r) => r.vendorSlug,
        (r) => r.rating,
      ),
      10,
    );
    expect(Math.max(...stars) - Math.min(...stars)).toBeGreaterThan(1.5);
  });

  it('verifies about 80% of vendors, never a newcomer', () => {
    const verified = big.vendor.filter((v) => v.verified).length / big.vendor.length;
    expect(verified).toBeGreaterThan(0.6);
    expect(verified).toBeLessThan(0.95);
    const approved = new Set(big.batch.filter((b) => b.status === 'approved').map((b) => b.vendorSlug));
    for (const v of big.vendor) if (!approved.has(v.slug)) expect(v.verified).toBe(false);
  });

  it('mixes batch states, never in the future', () => {
    const states = new Map<string, number>();
    for (const b of all.batch) {
      const state =
        b.status !== 'approved'
          ? b.status
          : NOW - Date.parse(b.testedAt!) > 150 * DAY_MS
            ? 'stale'
            : 'verified';
      states.set(state, (states.get(state) ?? 0) + 1);
    }
    expect(states.get('verified')).toBeGreaterThan(500);
    for (const s of ['stale', 'pending', 'rejected']) expect(states.get(s)).toBeGreaterThan(20);
    for (const t of RECORD_TYPES) {
      for (const r of all[t] as object[]) {
        for (const [k, v] of Object.entries(r)) {
          if (!k.endsWith('At') || typeof v !== 'string') continue;
          expect(new Date(v).toISOString()).toBe(v);
          expect(Date.parse(v)).toBeLessThanOrEqual(NOW);
        }
      }
    }
  });

  it('names 2,000 peptides by default, varied and unique', () => {
    const peptides = [...scaleDataset({ vendors: 1, batches: 0 }, NOW)].flatMap((c) => c.peptide);
    expect(peptides).toHaveLength(2000);
    expect(new Set(peptides.map((p) => p.slug)).size).toBe(2000);
    expect(new Set(peptides.map((p) => p.name.toLowerCase())).size).toBe(2000);
    expect(peptides.map((p) => p.name)).toContain('BPC-157');
    expect(peptides.some((p) => /^Semaglutide-\d+$/.test(p.name))).toBe(true);
    const vendorNames = all.vendor.map((v) => v.name);
    expect(new Set(vendorNames.map((n) => n.split(' ')[0])).size).toBeGreaterThan(10);
  });

  it('rejects nonsense options', () => {
    expect(() => scaleDataset({ vendors: 0, batches: 10 }, NOW)).toThrow(RangeError);
    expect(() => scaleDataset({ vendors: 5, batches: -1 }, NOW)).toThrow(RangeError);
    expect(() => scaleDataset({ vendors: 5, batches: 1.5 }, NOW)).toThrow(RangeError);
    expect(() => scaleDataset({ vendors: 5, batches: 10 }, NOW, 0)).toThrow(RangeError);
    expect(() => scaleDataset({ vendors: 5, batches: 10, peptides: 0 }, NOW)).toThrow(RangeError);
    expect(() => scaleDataset({ vendors: 5, batches: 10, priceHistoryDays: -1 }, NOW)).toThrow(RangeError);
  });
});

describe('scaleBatchId', () => {
  it('is the id of the i-th generated batch', () => {
    all.batch.forEach((b, i) => {
      expect(b.batchId).toBe(scaleBatchId(i));
    });
  });

  it('is unique after the lookup normalisation, so ids past the end are absent', () => {
    const keys = new Set<string>();
    for (let i = 0; i < 200_000; i++) keys.add(batchKey(scaleBatchId(i)));
    expect(keys.size).toBe(200_000);
    const present = new Set(all.batch.map((b) => batchKey(b.batchId)));
    for (let k = 0; k < 1000; k++) expect(present.has(batchKey(scaleBatchId(SMALL.batches + k)))).toBe(false);
  });

  it('is deterministic and varied in format', () => {
    expect(scaleBatchId(12_345)).toBe(scaleBatchId(12_345));
    const ids = [0, 1, 2, 3].map(scaleBatchId);
    expect(ids.some((id) => id.includes(' '))).toBe(true);
    expect(ids.some((id) => id !== id.toUpperCase())).toBe(true);
    expect(() => scaleBatchId(-1)).toThrow(RangeError);
  });
});
