import { Type as T } from '@sinclair/typebox';
import { PillarsSchema } from '../shared-schemas.ts';

/** Variant A: snake_case; lists `{data, total[, page]}`; details at top level. */

const Tier = T.Union([T.Literal('platinum'), T.Literal('gold'), T.Literal('silver'), T.Literal('bronze')], {
  description: 'Band of the composite: platinum ≥ 90, gold ≥ 80, silver ≥ 70, bronze below.',
});
const Timestamp = T.String({ format: 'date-time' });

export const VendorItemA = T.Object({
  slug: T.String(),
  name: T.String(),
  score: T.Integer({ minimum: 0, maximum: 100, description: 'Composite score.' }),
  purity: T.String({
    pattern: '^[0-9]+(\\.[0-9])?%$',
    description:
      'Mean tested purity of approved batches, one decimal with ".0" dropped, e.g. "99.1%", "99%". Always ' +
      'present: a vendor without a tested purity on record is not in Variant A’s rankings yet.',
  }),
  verified: T.Boolean(),
  tier: Tier,
  location: T.String({ description: 'Country.' }),
  pillars: PillarsSchema,
});

export const VendorListA = T.Object(
  {
    data: T.Array(VendorItemA),
    total: T.Integer({
      description:
        'All vendors of the ranking: verified, scored, with a tested purity on record (not the page).',
    }),
    page: T.Integer({ description: 'The page returned (1-based).' }),
  },
  { $id: 'VendorListA', title: 'VendorListA' },
);

export const RecentCoaA = T.Object({
  batch_id: T.String(),
  peptide: T.String({ description: 'Peptide name.' }),
  purity: T.Union([T.Number(), T.Null()], { description: 'Tested purity, percent; null while pending.' }),
  lab: T.Union([T.String(), T.Null()], { description: 'Testing laboratory; null while pending.' }),
  tested_at: T.Union([Timestamp, T.Null()]),
  submitted_at: T.Union([Timestamp, T.Null()], {
    description: 'When the vendor submitted it; null for an approved record imported without one.',
  }),
  state: T.Union([T.Literal('verified'), T.Literal('stale'), T.Literal('pending')], {
    description: 'verified: tested within 150 days; stale: longer ago; pending: awaiting review.',
  }),
});

export const VendorDetailA = T.Object(
  {
    slug: T.String(),
    name: T.String(),
    score: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: 100,
        description: 'Composite score. Absent while the vendor is unscored.',
      }),
    ),
    tier: T.Optional(T.Union(Tier.anyOf, { description: `${Tier.description} Absent while unscored.` })),
    verified: T.Boolean(),
    score_history: T.Array(T.Integer(), { description: 'Composite scores, oldest first.' }),
    coa_count: T.Integer({ description: 'Approved CoAs (tested batches) on record.' }),
    sentiment: T.Optional(
      T.Integer({ minimum: 0, maximum: 100, description: 'The sentiment pillar. Absent while unscored.' }),
    ),
    peptide_catalog: T.Array(T.String(), { description: 'Names of the peptides the vendor lists.' }),
    recent_coas: T.Array(RecentCoaA, { description: 'Newest 10 approved or pending batches, newest first.' }),
    verified_at: T.Optional(
      T.String({
        format: 'date-time',
        description:
          'When the vendor was verified. Present only for a verified vendor whose verification time is on record.',
      }),
    ),
  },
  { $id: 'VendorDetailA', title: 'VendorDetailA' },
);

export const PeptideA = T.Object({
  slug: T.String(),
  name: T.String(),
  category: T.String({ description: 'Lower-case slug, e.g. healing, metabolic, growth-hormone.' }),
  vendor_count: T.Integer({ description: 'Length of this peptide’s vendor ranking.' }),
  molecular_weight: T.String({ description: 'A number followed by a unit, e.g. "1419.5 g/mol".' }),
});

export const PeptideListA = T.Object(
  { data: T.Array(PeptideA), total: T.Integer() },
  { $id: 'PeptideListA', title: 'PeptideListA' },
);

export const PeptideRankingA = T.Object(
  {
    peptide: T.String({ description: 'Peptide slug.' }),
    vendors: T.Array(
      T.Object({
        slug: T.String(),
        score: T.Integer(),
        rank: T.Integer({ minimum: 1, description: '1..n by score.' }),
      }),
    ),
  },
  { $id: 'PeptideRankingA', title: 'PeptideRankingA' },
);

export const SearchResultA = T.Object(
  {
    vendors: T.Array(
      T.Object({ slug: T.String(), name: T.String(), score: T.Integer(), tier: Tier, verified: T.Boolean() }),
    ),
    peptides: T.Array(
      T.Object({ slug: T.String(), name: T.String(), category: T.String(), vendor_count: T.Integer() }),
    ),
  },
  { $id: 'SearchResultA', title: 'SearchResultA' },
);
