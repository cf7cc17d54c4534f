/**
 * Invented vendors, labs and accounts for the demo dataset. Any resemblance to a real company is
 * accidental. Tier bands and statuses are fixed here rather than drawn at random so the demo reads
 * the same in docs, screenshots and tests.
 */

export type VendorStatus = 'verified' | 'pending' | 'unverified';
/** Every pillar of a banded vendor lies inside the band, so its tier holds whatever the weights. */
export type Band = 90 | 80 | 70 | 60;

export interface DemoVendor {
  name: string;
  location: string;
  premium: boolean;
  status: VendorStatus;
  /** null: the vendor gets no overrides and stays unscored. */
  band: Band | null;
}

type Row = [name: string, location: string, premium: boolean, status: VendorStatus, band: Band | null];

const US = 'United States';
const CA = 'Canada';
const UK = 'United Kingdom';
const DE = 'Germany';
const NL = 'Netherlands';
const AU = 'Australia';

const ROWS: Row[] = [
  ['Aurora Peptide Works', US, true, 'verified', 90],
  ['Helixa Research', DE, true, 'verified', 90],
  ['Northwind Biolabs', CA, true, 'verified', 90],
  ['Copperleaf Biotech', UK, true, 'verified', 90],
  ['Granite Peak Research', US, false, 'verified', 90],
  ['Lumen Synthetics', NL, true, 'verified', 90],
  ['Kestrel Peptide Supply', US, true, 'verified', 80],
  ['Brightwater Compounds', AU, false, 'verified', 80],
  ['Cobalt Ridge Biochem', US, true, 'verified', 80],
  ['Solstice Amino', CA, false, 'verified', 80],
  ['Tidewater Peptide Co', US, true, 'verified', 80],
  ['Verdant Chem Labs', DE, false, 'verified', 80],
  ['Halden Peptides', 'Denmark', true, 'verified', 80],
  ['Quartzline Bio', US, false, 'verified', 80],
  ['Orison Labs', 'Ireland', false, 'verified', 80],
  ['Alder & Finch Research', UK, true, 'verified', 80],
  ['Pinecrest Peptides', US, false, 'verified', 80],
  ['Sablewood Labs', 'Sweden', false, 'verified', 80],
  ['Blue Heron Peptides', US, false, 'verified', 80],
  ['Ashgrove Research Chemicals', UK, false, 'verified', 80],
  ['Nimbus Peptide Lab', AU, true, 'verified', 80],
  ['Ravenstone Bio', NL, false, 'verified', 70],
  ['Saltmarsh Synthetics', US, false, 'verified', 70],
  ['Thistle Peptides', UK, false, 'verified', 70],
  ['Wrenfield Labs', CA, false, 'verified', 70],
  ['Oakhurst Amino', US, false, 'verified', 70],
  ['Corvid Research', DE, false, 'verified', 70],
  ['Larkspur Biochem', US, true, 'verified', 70],
  ['Driftwood Peptides', 'New Zealand', false, 'verified', 70],
  ['Elmstead Labs', US, false, 'verified', 70],
  ['Silverbirch Research', CA, false, 'verified', 70],
  ['Kingsmere Peptides', UK, false, 'verified', 70],
  ['Foxglove Bio', 'Poland', false, 'verified', 70],
  ['Harborline Labs', US, false, 'verified', 60],
  ['Ironwood Peptide Co', US, false, 'verified', 60],
  ['Juniper Vale Research', AU, false, 'verified', 60],
  ['Moorland Biochem', UK, false, 'verified', 60],
  ['Nettle & Stone Labs', 'Czech Republic', false, 'verified', 60],
  ['Obsidian Peptides', US, false, 'verified', 60],
  ['Pellucid Bio', NL, false, 'verified', 60],
  ['Quayside Research', 'Ireland', false, 'verified', 60],
  ['Rookwood Peptides', US, false, 'verified', 70],
  ['Starling Synthetics', US, true, 'pending', 70],
  ['Tamarack Labs', CA, false, 'pending', 60],
  ['Umberfield Bio', DE, false, 'pending', 80],
  ['Westmere Research', US, false, 'pending', 60],
  ['Yarrow Peptides', UK, true, 'pending', 70],
  ['Zephyr Amino Labs', US, false, 'pending', 60],
  ['Bramblecote Bio', AU, false, 'pending', 60],
  ['Cinderhill Peptides', US, false, 'pending', 70],
  ['Dunmore Research', 'Ireland', false, 'pending', 60],
  ['Eastlake Peptide Supply', US, false, 'pending', null],
  ['Fairhaven Labs', CA, true, 'pending', null],
  ['Glenrock Biochem', 'Sweden', false, 'pending', null],
  ['Hollowbrook Peptides', US, false, 'unverified', 60],
  ['Islay Research', UK, false, 'unverified', 60],
  ['Jadeport Labs', NL, false, 'unverified', 60],
  ['Marrow Lane Bio', US, false, 'unverified', 70],
  ['Ferndale Peptides', DE, false, 'unverified', null],
  ['Saffron Coast Peptides', AU, false, 'unverified', null],
];

export const DEMO_VENDORS: readonly DemoVendor[] = ROWS.map(([name, location, premium, status, band]) => ({
  name,
  location,
  premium,
  status,
  band,
}));

/** Two vendors with identical pillars, so their composites tie under any weighting. */
export const TIED_VENDORS = ['kestrel-peptide-supply', 'brightwater-compounds'] as const;

/** A bronze-band vendor whose composite an operator lifted by hand. */
export const SCORE_OVERRIDE = { vendorSlug: 'harborline-labs', value: 74 } as const;

/** Two vendors that print the same batch number on different products. */
export const SHARED_BATCH = {
  batchId: 'PX-0118',
  vendorSlugs: ['helixa-research', 'cobalt-ridge-biochem'],
} as const;

export const DEMO_LABS: readonly { name: string; trusted: boolean }[] = [
  { name: 'Meridian Analytical', trusted: true },
  { name: 'Northgate Testing Labs', trusted: true },
  { name: 'Clearwater Bioanalytics', trusted: true },
  { name: 'Halcyon Assay Services', trusted: true },
  { name: 'Ironbridge Labs', trusted: true },
  { name: 'Verity Peptide Analysis', trusted: true },
  { name: 'Quillon Chromatography', trusted: false },
  { name: 'Bluefen Labs', trusted: false },
];

export const DEMO_ACCOUNT = 'demo';

interface DemoAccount {
  name: string;
  plan: 'free' | 'pro' | 'enterprise' | 'custom';
  rateLimitA?: number;
  rateLimitB?: number;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { name: DEMO_ACCOUNT, plan: 'enterprise' },
  { name: 'acme-labs', plan: 'pro' },
  { name: 'free-tier', plan: 'free' },
  { name: 'bigco', plan: 'custom', rateLimitA: 50_000, rateLimitB: 20_000 },
  // Vendor owners who claimed their own listings.
  { name: 'cobalt-ridge-holdings', plan: 'enterprise' },
  { name: 'halden-group', plan: 'enterprise' },
  { name: 'lumen-ops', plan: 'enterprise' },
];

/** Claimed vendor slug → owning account. */
export const DEMO_CLAIMS: Readonly<Record<string, string>> = {
  'aurora-peptide-works': DEMO_ACCOUNT,
  'kestrel-peptide-supply': DEMO_ACCOUNT,
  'ravenstone-bio': DEMO_ACCOUNT,
  'starling-synthetics': DEMO_ACCOUNT,
  'harborline-labs': DEMO_ACCOUNT,
  'helixa-research': 'acme-labs',
  'brightwater-compounds': 'acme-labs',
  'thistle-peptides': 'acme-labs',
  'northwind-biolabs': 'bigco',
  'larkspur-biochem': 'bigco',
  'cobalt-ridge-biochem': 'cobalt-ridge-holdings',
  'tidewater-peptide-co': 'cobalt-ridge-holdings',
  'halden-peptides': 'halden-group',
  'nimbus-peptide-lab': 'halden-group',
  'lumen-synthetics': 'lumen-ops',
};

const SPECIALTIES = [
  'GLP-1 and metabolic research compounds',
  'growth hormone secretagogues',
  'tissue-repair peptides',
  'nootropic and neuropeptide research compounds',
  'cosmetic and dermal peptides',
  'longevity and mitochondrial peptides',
  'a broad catalog of research peptides',
];

const OPENERS = [
  (n: string, loc: string, spec: string) => `${n} is a ${loc}-based supplier of ${spec}.`,
  (n: string, loc: string, spec: string) => `Shipping from ${loc}, ${n} focuses on ${spec}.`,
  (n: string, _loc: string, spec: string) => `${n} specialises in ${spec} for laboratory use.`,
  (n: string, loc: string, spec: string) => `${n} is a family-run business in ${loc} stocking ${spec}.`,
];

const CLOSERS = [
  'Every lot ships with a certificate of analysis.',
  'Orders placed before noon ship the same day.',
  'Lyophilised vials are packed with cold packs in summer.',
  'Third-party HPLC reports are published for most lots.',
  'Bulk pricing is available on request.',
  'All products are sold for research use only.',
  'Customer support answers by email within one business day.',
];

export function vendorDescription(
  name: string,
  location: string,
  founded: number,
  pick: <T>(xs: readonly T[]) => T,
): string {
  const opener = pick(OPENERS)(name, location, pick(SPECIALTIES));
  const closerA = pick(CLOSERS);
  let closerB = pick(CLOSERS);
  if (closerB === closerA) closerB = CLOSERS[(CLOSERS.indexOf(closerA) + 1) % CLOSERS.length]!;
  return `${opener} Operating since ${founded}. ${closerA} ${closerB}`;
}
