import { DAY_MS, HOUR_MS, isoTime } from '../core/clock.ts';
import {
  emptyImportBatch,
  type ImportBatch,
  type OverrideRecord,
  type PriceRecord,
  type ReplyRecord,
  type ReviewRecord,
} from '../core/import/records.ts';
import { PILLARS, type Pillars } from '../core/vendors/model.ts';
import { type BatchVendor, demoBatches } from './demo-batches.ts';
import { DEMO_PEPTIDES, type DemoPeptide } from './demo-peptides.ts';
import { authorHandle, BODIES, fill, REPLIES, sentimentOf, TITLES } from './demo-reviews.ts';
import {
  type Band,
  DEMO_ACCOUNTS,
  DEMO_CLAIMS,
  DEMO_LABS,
  DEMO_VENDORS,
  SCORE_OVERRIDE,
  TIED_VENDORS,
  type VendorStatus,
  vendorDescription,
} from './demo-vendors.ts';
import { Random } from './prng.ts';
import { slugify } from './text.ts';

export { DEMO_ACCOUNT } from './demo-vendors.ts';

/**
 * The demo dataset behind `purerank seed demo`: a realistic, fully cross-referenced catalog.
 * Only timestamps, batch numbers and founding years depend on `nowMs` (times are relative to it
 * and none lies in the future), so every vendor keeps its tier and every batch its lookup state
 * whatever day the demo is seeded.
 */

const SEED = 0x5eed_0001;
const REASON = 'demo seed';
const REVIEWS = 300;
const REPLY_COUNT = 40;

/** Separate streams per section, so tuning one section does not reshuffle the others. */
const stream = (section: number) => new Random(SEED + section * 0x9e37);

const CATALOG_SIZE: Record<VendorStatus, [number, number]> = {
  verified: [8, 16],
  pending: [5, 12],
  unverified: [5, 9],
};
const PRICE_FACTOR: Record<Band, [number, number]> = {
  90: [1.05, 1.3],
  80: [0.95, 1.2],
  70: [0.85, 1.1],
  60: [0.75, 1],
};
/** Review weight per vendor: better-known vendors collect more reviews. */
const REVIEW_WEIGHT: Record<Band, number> = { 90: 8, 80: 6, 70: 5, 60: 4 };
/** Weights of ratings 1..5 by band: skewed positive, less so for weaker vendors. */
const RATING_WEIGHTS: Record<Band, readonly number[]> = {
  90: [1, 1, 4, 24, 70],
  80: [2, 3, 8, 35, 52],
  70: [4, 6, 15, 40, 35],
  60: [12, 12, 22, 30, 24],
};

interface SeedVendor extends BatchVendor {
  premium: boolean;
}

export function demoDataset(nowMs: number): ImportBatch {
  if (!Number.isFinite(nowMs)) throw new RangeError('nowMs must be a finite number');
  const out = emptyImportBatch();

  for (const a of DEMO_ACCOUNTS) out.account.push({ type: 'account', ...a });
  const labs = DEMO_LABS.map((l) => ({ slug: slugify(l.name), ...l }));
  for (const l of labs) {
    out.lab.push({
      type: 'lab',
      slug: l.slug,
      name: l.name,
      trusted: l.trusted,
      verifyUrl: `https://${l.slug}.example/verify`,
    });
  }
  for (const p of DEMO_PEPTIDES) {
    out.peptide.push({
      type: 'peptide',
      slug: p.slug,
      name: p.name,
      category: p.category,
      molecularWeight: `${p.mw} g/mol`,
      aliases: [...p.aliases],
    });
  }

  const vendors = buildVendors(out, nowMs);
  for (const [vendorSlug, account] of Object.entries(DEMO_CLAIMS))
    out.claim.push({ type: 'claim', vendorSlug, account });
  out.override.push(...overrides(vendors));
  out.price.push(...prices(vendors, nowMs));
  out.batch.push(...demoBatches(vendors, labs, nowMs, stream(5), stream(6)));
  const { reviews, replies } = reviewsAndReplies(vendors, nowMs);
  out.review.push(...reviews);
  out.reply.push(...replies);
  return out;
}

function buildVendors(out: ImportBatch, nowMs: number): SeedVendor[] {
  const rng = stream(1);
  return DEMO_VENDORS.map((d, index) => {
    const slug = slugify(d.name);
    const verified = d.status === 'verified';
    const founded = new Date(nowMs).getUTCFullYear() - rng.int(1, 9);
    out.vendor.push({
      type: 'vendor',
      slug,
      name: d.name,
      location: d.location,
      description: vendorDescription(d.name, d.location, founded, (xs) => rng.pick(xs)),
      website: `https://${slug}.example`,
      listingPlan: d.premium ? 'premium' : 'free',
      verified,
      pending: d.status === 'pending',
      verifiedAt: verified ? isoTime(nowMs - rng.int(30 * DAY_MS, 900 * DAY_MS)) : null,
    });
    const [min, max] = CATALOG_SIZE[d.status];
    const size = Math.min(20, rng.int(min, max) + (d.premium ? 4 : 0));
    const catalog = rng.weightedSample(DEMO_PEPTIDES, size, (p) => p.popularity);
    return { slug, name: d.name, index, status: d.status, band: d.band, premium: d.premium, catalog };
  });
}

function overrides(vendors: readonly SeedVendor[]): OverrideRecord[] {
  const rng = stream(2);
  const out: OverrideRecord[] = [];
  let tied: Pillars | undefined;
  for (const v of vendors) {
    if (v.band === null) continue;
    const band = v.band;
    const isTied = (TIED_VENDORS as readonly string[]).includes(v.slug);
    const draw = (): Pillars =>
      Object.fromEntries(
        PILLARS.map((f) => [f, band === 60 ? rng.int(45, 69) : rng.int(band, band + 9)]),
      ) as Pillars;
    const pillars = isTied && tied ? tied : draw();
    if (isTied) tied = pillars;
    if (v.slug === SCORE_OVERRIDE.vendorSlug) {
      out.push({
        type: 'override',
        vendorSlug: v.slug,
        field: 'score',
        value: SCORE_OVERRIDE.value,
        reason: REASON,
      });
    }
    // Scores come from the evidence below; only the two tied vendors have their pillars pinned,
    // so the demo always shows the tie rule (same score, ordered by name).
    if (!isTied) continue;
    for (const field of PILLARS) {
      out.push({ type: 'override', vendorSlug: v.slug, field, value: pillars[field], reason: REASON });
    }
  }
  return out;
}

const retail = (usd: number): number => Math.max(9.99, Math.round(usd) - 0.01);

function prices(vendors: readonly SeedVendor[], nowMs: number): PriceRecord[] {
  const rng = stream(3);
  const out: PriceRecord[] = [];
  const row = (
    v: SeedVendor,
    p: DemoPeptide,
    vialMg: number,
    source: 'baseline' | 'live',
    totalUsd: number,
    inStock: boolean,
    agoMs: number,
  ): PriceRecord => ({
    type: 'price',
    vendorSlug: v.slug,
    peptideSlug: p.slug,
    vialMg,
    source,
    totalUsd,
    inStock,
    updatedAt: isoTime(nowMs - agoMs),
  });
  // Baselines go stale after 90 days and live rows after 72 h; a quarter of each is past that.
  const baselineAgo = () =>
    rng.chance(0.75) ? rng.int(1 * DAY_MS, 89 * DAY_MS) : rng.int(91 * DAY_MS, 200 * DAY_MS);
  const liveAgo = () =>
    rng.chance(0.8) ? rng.int(HOUR_MS / 4, 60 * HOUR_MS) : rng.int(73 * HOUR_MS, 20 * DAY_MS);

  for (const v of vendors) {
    const [lo, hi] = PRICE_FACTOR[v.band ?? 60];
    const factor = lo + rng.float() * (hi - lo);
    for (const p of v.catalog) {
      const sizes = rng
        .shuffle(p.vials)
        .slice(0, rng.int(1, Math.min(2, p.vials.length)))
        .sort((a, b) => a - b);
      for (const mg of sizes) {
        const baseline = retail(p.usd * (mg / p.vials[0]!) ** 0.85 * factor);
        const r = rng.float();
        // 20% listed live only, 15% live overriding a baseline, the rest baseline only.
        if (r >= 0.2) out.push(row(v, p, mg, 'baseline', baseline, rng.chance(0.95), baselineAgo()));
        if (r < 0.35) {
          let live = retail(baseline * (0.85 + rng.float() * 0.25));
          if (live === baseline) live = retail(baseline - 5);
          out.push(row(v, p, mg, 'live', live, rng.chance(0.88), liveAgo()));
        }
      }
    }
  }
  return out;
}

function reviewsAndReplies(
  vendors: readonly SeedVendor[],
  nowMs: number,
): { reviews: ReviewRecord[]; replies: ReplyRecord[] } {
  const rng = stream(4);
  const pick = <T>(xs: readonly T[]): T => rng.pick(xs);
  const weights = vendors.map((v) =>
    v.status === 'unverified' ? 1 : v.status === 'pending' ? 2 : REVIEW_WEIGHT[v.band ?? 60],
  );
  const drafts = Array.from({ length: REVIEWS }, (_, n) => {
    const v = vendors[rng.weightedIndex(weights)]!;
    const rating = rng.weightedIndex(RATING_WEIGHTS[v.band ?? 60]) + 1;
    const mood = sentimentOf(rating);
    const peptide = pick(v.catalog).name;
    const [first, second] = rng.shuffle(BODIES[mood]);
    const body = rng.chance(0.6) ? `${first} ${second}` : first!;
    return {
      vendorSlug: v.slug,
      rating,
      title: fill(pick(TITLES[mood]), peptide),
      body: fill(body, peptide),
      author: authorHandle(pick, n),
      agoMs: rng.int(DAY_MS, 730 * DAY_MS),
    };
  });
  // Oldest first, so review ids read chronologically.
  drafts.sort((a, b) => b.agoMs - a.agoMs);
  const reviews: ReviewRecord[] = drafts.map(({ agoMs, ...r }, i) => ({
    type: 'review',
    id: `rev-${String(i + 1).padStart(4, '0')}`,
    ...r,
    createdAt: isoTime(nowMs - agoMs),
  }));

  // Owners of claimed listings reply most; a few unclaimed vendors answer too.
  const claimed = new Set(Object.keys(DEMO_CLAIMS));
  const order = rng.shuffle(drafts.map((_, i) => i));
  const chosen = [
    ...order.filter((i) => claimed.has(drafts[i]!.vendorSlug)).slice(0, 30),
    ...order.filter((i) => !claimed.has(drafts[i]!.vendorSlug)),
  ]
    .slice(0, REPLY_COUNT)
    .sort((a, b) => a - b);
  const replies: ReplyRecord[] = chosen.map((i) => {
    const d = drafts[i]!;
    const delay = rng.int(HOUR_MS, Math.min(14 * DAY_MS, d.agoMs - HOUR_MS));
    return {
      type: 'reply',
      reviewId: reviews[i]!.id,
      body: pick(REPLIES[sentimentOf(d.rating)]),
      createdAt: isoTime(nowMs - d.agoMs + delay),
    };
  });
  return { reviews, replies };
}
