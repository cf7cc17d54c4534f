import { z } from 'zod';
import { notFound } from '../../../core/errors.ts';
import { explainScore } from '../../../core/scoring/explain.ts';
import { cutoffsOf } from '../../../core/scoring/method.ts';
import { PILLARS } from '../../../core/vendors/model.ts';
import { defineTool } from './model.ts';
import { slug, Tier } from './shapes.ts';

/** `purityWeightedSum` → `purity_weighted_sum`: the tools speak Variant A's snake_case. */
const snakeKeys = (o: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
  );

/** How a vendor's score is made of its pillars under the method in force (core/scoring/explain.ts). */
export const explainScoreTool = defineTool({
  name: 'explain_score',
  title: 'Explain a vendor score',
  description:
    "How one vendor's composite score is made: each pillar's value (0..100), its weight, the points it " +
    'contributes, what the evidence gives it now, any operator override, and the rule that computes it with ' +
    'the parameters in force; the evidence sums the engine reads; whether an override pins the composite. An unscored vendor (too little evidence) has no parts. The full method is the ' +
    'resource purerank://docs/methodology.',
  access: 'read',
  input: z.object({ vendor: slug('Vendor') }),
  output: z.object({
    method_version: z.string(),
    slug: z.string(),
    name: z.string(),
    score: z.number().int().nullable(),
    tier: Tier.nullable(),
    composite: z.number().int().nullable().describe('The weighted mean of the pillars, rounded half up.'),
    score_pinned: z
      .boolean()
      .describe('An operator override pins the score (it then differs from composite).'),
    min_approved_batches: z.number().int().describe('Approved, tested batches a vendor needs to be scored.'),
    parts: z.array(
      z.object({
        pillar: z.enum(PILLARS),
        value: z.number().int(),
        weight: z.number(),
        points: z.number(),
        computed: z.number().int().nullable().describe('What the evidence gives the pillar now.'),
        override: z.number().int().nullable().describe("The operator's override, which wins."),
        how: z.string(),
      }),
    ),
    evidence: z
      .record(z.union([z.number(), z.string(), z.boolean(), z.null()]))
      .describe('The sums the engine reads (docs/methodology.md, Evidence).'),
    overrides: z.record(z.number()).describe('Operator overrides by pillar or `score`.'),
    computed_at: z.string(),
    recomputed_score: z
      .number()
      .int()
      .nullable()
      .describe('The score from the evidence at computed_at; differs from score only as evidence ages.'),
  }),
  async run({ vendor }, { services: s }) {
    const snap = await s.catalog.get(s.freshness.state);
    const v = snap.bySlug.get(vendor);
    if (!v) throw notFound('Vendor', vendor);
    const nowMs = s.clock.now();
    const method = s.config.scoring;
    const inputs = await s.store.catalog.scoreInputs(v.id, cutoffsOf(nowMs, method), method);
    const e = explainScore(v, method, { ...inputs, nowMs });
    return {
      method_version: e.methodVersion,
      slug: e.slug,
      name: e.name,
      score: e.score,
      tier: e.tier,
      composite: e.composite,
      score_pinned: e.scorePinned,
      min_approved_batches: e.minApprovedBatches,
      parts: e.parts.map(({ pillar, value, weight, points, computed, override, how }) => ({
        pillar,
        value,
        weight,
        points,
        computed,
        override,
        how,
      })),
      evidence: snakeKeys(e.evidence),
      overrides: e.overrides,
      computed_at: e.computedAt,
      recomputed_score: e.recomputedScore,
    };
  },
});
