import { z } from 'zod';
import { notFound } from '../../../core/errors.ts';
import { explainScore } from '../../../core/scoring/explain.ts';
import { PILLARS } from '../../../core/vendors/model.ts';
import { defineTool } from './model.ts';
import { slug, Tier } from './shapes.ts';

/** How a vendor's score is made of its pillars under the method in force (core/scoring/explain.ts). */
export const explainScoreTool = defineTool({
  name: 'explain_score',
  title: 'Explain a vendor score',
  description:
    "How one vendor's composite score is made: each pillar's value (0..100), its weight, the points it " +
    'contributes and the rule that computes it with the parameters in force; whether an operator override ' +
    'pins the composite. An unscored vendor (too little evidence) has no parts. The full method is the ' +
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
        how: z.string(),
      }),
    ),
  }),
  async run({ vendor }, { services: s }) {
    const snap = await s.catalog.get(s.freshness.state);
    const v = snap.bySlug.get(vendor);
    if (!v) throw notFound('Vendor', vendor);
    const e = explainScore(v, s.config.scoring);
    return {
      method_version: e.methodVersion,
      slug: e.slug,
      name: e.name,
      score: e.score,
      tier: e.tier,
      composite: e.composite,
      score_pinned: e.scorePinned,
      min_approved_batches: e.minApprovedBatches,
      parts: e.parts,
    };
  },
});
