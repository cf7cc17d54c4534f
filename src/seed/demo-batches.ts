import { DAY_MS, HOUR_MS, isoTime } from '../core/clock.ts';
import { type BatchImportRecord, batchKey } from '../core/import/records.ts';
import type { DemoPeptide } from './demo-peptides.ts';
import { type Band, SHARED_BATCH, type VendorStatus } from './demo-vendors.ts';
import type { Random } from './prng.ts';
import { pad } from './text.ts';

/**
 * Demo batches. Every batch ID is unique across vendors (after the lookup's normalisation) except
 * the one deliberately shared number, so a rejected batch really looks up as `missing`.
 */

export interface BatchVendor {
  slug: string;
  name: string;
  index: number;
  status: VendorStatus;
  band: Band | null;
  catalog: readonly DemoPeptide[];
}

export interface BatchLab {
  slug: string;
  trusted: boolean;
}

type State = 'recent' | 'stale' | 'pending' | 'rejected';
const STATES: readonly State[] = ['recent', 'stale', 'pending', 'rejected'];
const STATE_WEIGHTS: Record<VendorStatus, readonly number[]> = {
  verified: [66, 16, 10, 8],
  pending: [40, 10, 40, 10],
  unverified: [30, 20, 30, 20],
};
const BATCHES_PER_VENDOR: Record<VendorStatus, [number, number]> = {
  verified: [5, 13],
  pending: [3, 8],
  unverified: [2, 6],
};
const PURITY: Record<Band, [number, number]> = {
  90: [98.5, 99.9],
  80: [98, 99.8],
  70: [97, 99.6],
  60: [95.5, 99.2],
};
/**
 * Share of a scored vendor's catalog with a current approved CoA, by band: the evidence the coa
 * pillar reads, so the computed scores spread over the tiers the way the bands intend.
 */
const COVERAGE: Record<Band, number> = { 90: 0.95, 80: 0.8, 70: 0.6, 60: 0.35 };
const METHODS = ['HPLC', 'HPLC', 'HPLC-MS', 'LC-MS', 'HPLC-UV', 'UPLC-MS'];
const SOURCES = ['vendor-upload', 'vendor-upload', 'third-party', 'third-party', 'community'];
const LETTERS = 'ABCDEFGHJKLMNPRSTX';
/** Lookups treat >150 days as stale; keeping clear of the edge keeps states stable under clock skew. */
const RECENT_DAYS: [number, number] = [1, 140];
const STALE_DAYS: [number, number] = [160, 420];

const initials = (name: string): string =>
  name
    .split(/[\s&]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .join('');

function formatBatchId(style: number, v: BatchVendor, p: DemoPeptide, madeMs: number, rng: Random): string {
  const d = new Date(madeMs);
  const yyyy = d.getUTCFullYear();
  const yy = pad(yyyy % 100, 2);
  const mm = pad(d.getUTCMonth() + 1, 2);
  const dd = pad(d.getUTCDate(), 2);
  const letter = LETTERS[rng.int(0, LETTERS.length - 1)]!;
  switch (style) {
    case 0:
      return `${p.code}-${yy}${mm}-${letter}${pad(rng.int(1, 99), 2)}`;
    case 1:
      return `${p.code}-${yy}${pad(rng.int(1, 999), 3)}`;
    case 2:
      return `LOT ${rng.int(1000, 9999)}`;
    case 3:
      return `${initials(v.name).toLowerCase()}-${pad(rng.int(1, 9999), 4)}-${letter.toLowerCase()}`;
    case 4:
      return `${initials(v.name)}${yy}${mm}${dd}-${pad(rng.int(1, 20), 2)}`;
    case 5:
      return `${yyyy}.${mm}.${pad(rng.int(1, 999), 3)}`;
    case 6:
      return `${p.code}/${pad(rng.int(1, 99_999), 5)}`;
    default:
      return `batch ${pad(rng.int(1, 999), 3)} ${p.code.toLowerCase()}`;
  }
}

export function demoBatches(
  vendors: readonly BatchVendor[],
  labs: readonly BatchLab[],
  nowMs: number,
  rng: Random,
  /**
   * Batch numbers embed dates and retry on collisions, so they draw from their own stream and the
   * rest of the dataset stays identical whatever nowMs is.
   */
  idRng: Random,
): BatchImportRecord[] {
  const trusted = labs.filter((l) => l.trusted).map((l) => l.slug);
  const untrusted = labs.filter((l) => !l.trusted).map((l) => l.slug);
  const used = new Set<string>([batchKey(SHARED_BATCH.batchId)]);
  const out: BatchImportRecord[] = [];

  const uniqueId = (v: BatchVendor, p: DemoPeptide, madeMs: number): string => {
    for (;;) {
      const id = formatBatchId(v.index % 8, v, p, madeMs, idRng);
      if (!used.has(batchKey(id))) {
        used.add(batchKey(id));
        return id;
      }
    }
  };
  const pickLab = (band: Band | null): string =>
    rng.chance(band === 60 || band === null ? 0.3 : 0.05) ? rng.pick(untrusted) : rng.pick(trusted);

  const approved = (
    v: BatchVendor,
    p: DemoPeptide,
    testedAgo: number,
    batchId?: string,
  ): BatchImportRecord => {
    const [lo, hi] = PURITY[v.band ?? 60];
    const lab = pickLab(v.band);
    const id = batchId ?? uniqueId(v, p, nowMs - testedAgo - rng.int(2, 20) * DAY_MS);
    const source = rng.pick(SOURCES);
    const enc = encodeURIComponent(id);
    const sourceUrl =
      source === 'vendor-upload'
        ? `https://${v.slug}.example/coa/${enc}.pdf`
        : source === 'third-party'
          ? `https://${lab}.example/verify?report=${enc}`
          : `https://testing-commons.example/results/${rng.int(10_000, 99_999)}`;
    const submittedAgo = testedAgo - rng.int(0, Math.min(3 * DAY_MS, testedAgo - HOUR_MS));
    return {
      type: 'batch',
      vendorSlug: v.slug,
      batchId: id,
      peptideSlug: p.slug,
      purity: rng.decimal(lo, hi, 1),
      lab,
      testMethod: rng.pick(METHODS),
      testedAt: isoTime(nowMs - testedAgo),
      source,
      sourceUrl,
      status: 'approved',
      submittedAt: isoTime(nowMs - submittedAgo),
    };
  };

  const daysAgo = ([lo, hi]: [number, number]): number =>
    rng.int(lo, hi - 1) * DAY_MS + rng.int(0, DAY_MS - 1);

  for (const v of vendors) {
    if (v.band !== null) {
      for (const p of v.catalog) {
        if (rng.chance(COVERAGE[v.band])) out.push(approved(v, p, daysAgo(RECENT_DAYS)));
      }
    }
    const [min, max] = BATCHES_PER_VENDOR[v.status];
    const count = rng.int(min, max);
    for (let i = 0; i < count; i++) {
      const p = rng.weightedSample(v.catalog, 1, (x) => x.popularity)[0]!;
      const state = STATES[rng.weightedIndex(STATE_WEIGHTS[v.status])]!;
      if (state === 'recent' || state === 'stale') {
        out.push(approved(v, p, daysAgo(state === 'recent' ? RECENT_DAYS : STALE_DAYS)));
        continue;
      }
      if (state === 'pending') {
        const submittedAgo = rng.int(2 * HOUR_MS, 30 * DAY_MS);
        const batchId = uniqueId(v, p, nowMs - submittedAgo - rng.int(3, 30) * DAY_MS);
        out.push({
          type: 'batch',
          vendorSlug: v.slug,
          batchId,
          peptideSlug: p.slug,
          status: 'pending',
          submittedAt: isoTime(nowMs - submittedAgo),
        });
        continue;
      }
      // Rejected: half came with a (failed or unverifiable) report, half with nothing usable.
      const submittedAgo = daysAgo([3, 300]);
      const testedAgo = submittedAgo + rng.int(1, 10) * DAY_MS;
      const batchId = uniqueId(v, p, nowMs - testedAgo - rng.int(2, 20) * DAY_MS);
      const withReport = rng.chance(0.5);
      out.push({
        type: 'batch',
        vendorSlug: v.slug,
        batchId,
        peptideSlug: p.slug,
        ...(withReport && {
          purity: rng.decimal(86, 96.5, 1),
          lab: rng.chance(0.7) ? rng.pick(untrusted) : rng.pick(trusted),
          testMethod: rng.pick(METHODS),
          testedAt: isoTime(nowMs - testedAgo),
          source: 'vendor-upload',
          sourceUrl: `https://${v.slug}.example/coa/${encodeURIComponent(batchId)}.pdf`,
        }),
        status: 'rejected',
        submittedAt: isoTime(nowMs - submittedAgo),
      });
    }
  }

  // Same number, two vendors, two products: the case `?vendor=` exists for.
  const sharedPeptides = new Set<string>();
  SHARED_BATCH.vendorSlugs.forEach((slug, k) => {
    const v = vendors.find((x) => x.slug === slug);
    if (!v) throw new Error(`shared-batch vendor ${slug} is not in the demo`);
    const p = v.catalog.find((x) => !sharedPeptides.has(x.slug)) ?? v.catalog[0]!;
    sharedPeptides.add(p.slug);
    out.push(approved(v, p, (20 + 25 * k) * DAY_MS + rng.int(0, DAY_MS - 1), SHARED_BATCH.batchId));
  });
  return out;
}
