import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  type CatalogSearch,
  DEFAULT_SEARCH_LIMIT,
  MAX_QUERY_LENGTH,
  MAX_SEARCH_LIMIT,
} from '../../../core/search/search-catalog.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentSearch } from '../present.ts';
import { SearchResultA } from '../schemas.ts';

export function searchRoute(
  app: FastifyInstance,
  s: AppServices,
  cache: ResponseCache,
  search: CatalogSearch,
): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/search',
    {
      config: { access: 'read', cachedRead: cachedReads.aSearch },
      schema: {
        operationId: 'search',
        summary: 'Search vendors and peptides',
        description:
          'Full-text search over scored vendors (name, slug, country) and peptides (name, slug, aliases, category). ' +
          'Relevance order, ties by score. Case-, accent- and punctuation-insensitive (`bpc157`, `BPC 157` and ' +
          '`bpc-157` all find BPC-157); prefixes match; one typo is tolerated in words of five letters or more.',
        tags: ['search'],
        querystring: T.Object({
          q: T.String({
            minLength: 1,
            maxLength: MAX_QUERY_LENGTH,
            description: 'The query, 1..200 characters.',
          }),
          limit: T.Integer({
            minimum: 1,
            maximum: MAX_SEARCH_LIMIT,
            default: DEFAULT_SEARCH_LIMIT,
            description: 'Results per kind, 1..50 (default 10).',
          }),
        }),
        response: { 200: SearchResultA, ...commonErrors() },
      },
    },
    (request, reply) => {
      const { q, limit } = request.query;
      const state = s.freshness.state;
      // Queries that fold to the same words share one cached answer; a query of no words has none.
      const key = cachedReads.aSearch.key(request.params, request.query);
      return respond(
        request,
        reply,
        key === null ? undefined : cache.get(key, state.dataVersion, 0),
        async () => {
          const snap = await s.catalog.get(state);
          const result = search.search(snap, q, limit);
          const count = (slug: string) => snap.peptideRankings.get(slug)?.length ?? 0;
          const body = toCachedBody(presentSearch(result, count));
          return key === null ? body : cache.set(key, snap.version, body);
        },
      );
    },
  );
}
