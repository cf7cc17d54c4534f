import { z } from 'zod';
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
} from '../../../core/search/search-catalog.ts';
import { presentSearch } from '../../variant-a/present.ts';
import { defineTool } from './model.ts';
import { Tier } from './shapes.ts';

/** The search of `GET /v1/search`: the same index, the same answer. */
export const searchTool = defineTool({
  name: 'search',
  title: 'Search vendors and peptides',
  description:
    'Full-text search over scored vendors (name, slug, country) and peptides (name, slug, aliases, category), ' +
    'relevance first. Case-, accent- and punctuation-insensitive (`bpc157` finds BPC-157), prefixes match, one ' +
    'typo is tolerated in words of five letters or more.',
  access: 'read',
  restNames: { q: 'query' },
  input: z.object({
    query: z.string().min(1).max(MAX_QUERY_LENGTH).describe(`The query, 1..${MAX_QUERY_LENGTH} characters.`),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_LIMIT)
      .optional()
      .describe(`Results per kind, 1..${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}).`),
  }),
  output: z.object({
    vendors: z.array(
      z
        .object({ slug: z.string(), name: z.string(), score: z.number(), tier: Tier, verified: z.boolean() })
        .passthrough(),
    ),
    peptides: z.array(
      z
        .object({ slug: z.string(), name: z.string(), category: z.string(), vendor_count: z.number().int() })
        .passthrough(),
    ),
  }),
  async run({ query, limit }, { services: s }) {
    const snap = await s.catalog.get(s.freshness.state);
    const result = s.search.search(snap, query, limit ?? DEFAULT_SEARCH_LIMIT);
    const count = (p: string) => snap.peptideRankings.get(p)?.length ?? 0;
    return JSON.parse(presentSearch(result, count)) as Record<string, unknown>;
  },
});
