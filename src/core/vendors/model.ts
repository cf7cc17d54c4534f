export const PILLARS = ['coa', 'purity', 'sentiment', 'transparency', 'experience'] as const;
export type Pillar = (typeof PILLARS)[number];
export type Pillars = Record<Pillar, number>;
/** Pillar values as stored: a pillar without evidence or override is null. */
export type PartialPillars = Record<Pillar, number | null>;

export type ListingPlan = 'free' | 'premium';
export type Tier = 'platinum' | 'gold' | 'silver' | 'bronze';

/** A vendor as the read model holds it: everything a list or detail needs but the history. */
export interface Vendor {
  id: number;
  slug: string;
  name: string;
  location: string;
  description: string;
  /** Only shown by the API for premium listings. */
  website: string | null;
  listingPlan: ListingPlan;
  verified: boolean;
  pending: boolean;
  verifiedAt: string | null;
  /** Owned by an account (a "claimed" vendor). */
  claimed: boolean;
  /** Effective pillars (overrides applied); null when the vendor is not scored. */
  pillars: Pillars | null;
  /** Composite score; null exactly when pillars is null (a score override alone does not score a vendor). */
  score: number | null;
  /** Mean tested purity of the vendor's approved batches, percent; null without evidence. */
  purity: number | null;
}

export interface VendorDetail extends Vendor {
  /** Composite score history, oldest first, newest N (config). */
  scoreHistory: number[];
}

export const isScored = (v: Vendor): v is Vendor & { score: number; pillars: Pillars } =>
  v.score !== null && v.pillars !== null;
