import { z } from 'zod';
import { notFound } from '../../../core/errors.ts';
import { DEFAULT_PAGE_SIZE, listVendors, MAX_PAGE_SIZE } from '../../../core/vendors/list-vendors.ts';
import { presentPeptideRanking, presentVendorList } from '../../variant-a/present.ts';
import { defineTool } from './model.ts';
import { slug } from './shapes.ts';

interface Ranked {
  rank: number;
  slug: string;
  score: number;
}

/**
 * The rankings of `GET /v1/vendors` (overall) and `GET /v1/peptides/{slug}/vendors` (one peptide),
 * from the same read model: one shape for both, each entry with its rank.
 */
export const rankVendorsTool = defineTool({
  name: 'rank_vendors',
  title: 'Rank vendors',
  description:
    'Verified, scored vendors with a tested purity on record, by composite score descending (ties: name, ' +
    'then slug). Without `peptide`: the overall ranking, paged by `limit` and `offset`, each entry with its ' +
    'purity, tier, location and pillars. With `peptide`: the vendors listing that peptide, ranked the same way ' +
    '(every one of them; `limit` and `offset` page it too).',
  access: 'read',
  input: z.object({
    peptide: slug('Peptide').optional().describe('Rank the vendors of this peptide only.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_PAGE_SIZE)
      .optional()
      .describe(`Entries, 1..${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE}).`),
    offset: z.number().int().min(0).max(2_147_483_647).optional().describe('Entries skipped (default 0).'),
  }),
  output: z.object({
    peptide: z.string().nullable().describe('The peptide ranked for, or null for the overall ranking.'),
    total: z.number().int().describe('Entries in the whole ranking.'),
    vendors: z.array(
      z.object({ rank: z.number().int(), slug: z.string(), score: z.number().int() }).passthrough(),
    ),
  }),
  async run({ peptide, limit = DEFAULT_PAGE_SIZE, offset = 0 }, { services: s }) {
    const snap = await s.catalog.get(s.freshness.state);
    if (peptide === undefined) {
      const page = listVendors(snap, 'verified', limit, offset);
      const body = JSON.parse(presentVendorList(page.vendors, page.total, 1)) as {
        data: Omit<Ranked, 'rank'>[];
      };
      return {
        peptide: null,
        total: page.total,
        vendors: body.data.map((v, i) => ({ rank: offset + i + 1, ...v })),
      };
    }
    const ranking = snap.peptideRankings.get(peptide);
    if (!ranking) throw notFound('Peptide', peptide);
    const body = JSON.parse(presentPeptideRanking(peptide, ranking)) as { vendors: Ranked[] };
    return { peptide, total: ranking.length, vendors: body.vendors.slice(offset, offset + limit) };
  },
});
