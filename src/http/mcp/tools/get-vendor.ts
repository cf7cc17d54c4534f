import { z } from 'zod';
import { getVendorReport } from '../../../core/vendors/vendor-report.ts';
import { presentVendorDetail } from '../../variant-a/present.ts';
import { defineTool } from './model.ts';
import { slug, Tier } from './shapes.ts';

/** The same number of recent CoAs as `GET /v1/vendors/{slug}`. */
const RECENT_COAS = 10;

const RecentCoa = z
  .object({
    batch_id: z.string(),
    peptide: z.string(),
    purity: z.number().nullable(),
    lab: z.string().nullable(),
    tested_at: z.string().nullable(),
    submitted_at: z.string().nullable(),
    state: z.string(),
  })
  .passthrough();

/** Variant A's vendor report (`GET /v1/vendors/{slug}`), from the same use case. */
export const getVendorTool = defineTool({
  name: 'get_vendor',
  title: 'Vendor report',
  description:
    "One vendor's report, verified or not: score and tier (when scored), score history (oldest first), " +
    'the number of approved CoAs, the peptides it lists and its most recent CoAs (approved or pending). ' +
    'Use explain_score for how the score was computed.',
  access: 'read',
  input: z.object({ vendor: slug('Vendor') }),
  output: z
    .object({
      slug: z.string(),
      name: z.string(),
      score: z.number().int().optional(),
      tier: Tier.optional(),
      verified: z.boolean(),
      score_history: z.array(z.number()),
      coa_count: z.number().int(),
      sentiment: z.number().int().optional(),
      peptide_catalog: z.array(z.string()),
      recent_coas: z.array(RecentCoa),
      verified_at: z.string().optional(),
    })
    .passthrough(),
  async run({ vendor }, { services: s }) {
    const report = await getVendorReport(s.store.catalog, vendor, {
      historyLength: s.config.scoreHistoryLength,
      nowMs: s.clock.now(),
      recentCoas: RECENT_COAS,
      staleAfterDays: s.config.batchStaleAfterDays,
    });
    return JSON.parse(presentVendorDetail(report)) as Record<string, unknown>;
  },
});
