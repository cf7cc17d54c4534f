import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/core/clock.ts';
import {
  batchKey,
  emptyImportBatch,
  type ImportBatch,
  RECORD_TYPES,
  type RecordType,
} from '../../../src/core/import/records.ts';
import { type ScaleOptions, scaleBatchId, scaleDataset } from '../../../src/core/seed/scale-dataset.ts';

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

describe('scaleDataset', () => {
  it('generates exact counts', () => {
    expect(all.lab).toHaveLength(20);
    expect(all.peptide).toHaveLength(200);
    expect(all.vendor).toHaveLength(50);
    expect(all.override).toHaveLength(50 * 5);
    expect(all.batch).toHaveLength(1000);
    expect(all.review).toHaveLength(120);
    expect(all.account).toHaveLength(0);
    expect(all.price.filter((p) => p.source === 'baseline')).toHaveLength(50 * 3);
  });

  it('streams in chunks of at most chunkSize, in dependency order', () => {
    const batchChunks = chunks.filter((c) => c.batch.length > 0);
    expect(batchChunks).toHaveLength(10);
    for (const c of batchChunks) expect(c.batch.length).toBeLessThanOrEqual(CHUNK);
    for (const c of chunks) {
      expect(c.peptide.length).toBeLessThanOrEqual(CHUNK);
      expect(c.vendor.length).toBeLessThanOrEqual(CHUNK);
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
    expect(merge([...scaleDataset(SMALL, NOW, 333)])).toEqual(all);
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
    const priceKeys = all.price.map((p) => `${p.vendorSlug}/${p.peptideSlug}/${p.vialMg}/${p.source}`);
    expect(new Set(priceKeys).size).toBe(priceKeys.length);
    expect(new Set(all.review.map((r) => r.id)).size).toBe(all.review.length);
  });

  it('scores every vendor and verifies about 80%', () => {
    const fields = new Map<string, number>();
    for (const o of all.override) fields.set(o.vendorSlug, (fields.get(o.vendorSlug) ?? 0) + 1);
    for (const v of all.vendor) expect(fields.get(v.slug)).toBe(5);
    const verified = all.vendor.filter((v) => v.verified).length / all.vendor.length;
    expect(verified).toBeGreaterThan(0.6);
    expect(verified).toBeLessThan(0.95);
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
