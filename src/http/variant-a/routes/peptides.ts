import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../core/errors.ts';
import { cachedReads, normalizeCategory } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors, PEPTIDE_SLUG } from '../../shared-schemas.ts';
import { presentPeptideList, presentPeptideRanking } from '../present.ts';
import { PeptideListA, PeptideRankingA } from '../schemas.ts';

export function peptideRoutes(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/peptides',
    {
      config: { access: 'read', cachedRead: cachedReads.aPeptides },
      schema: {
        operationId: 'listPeptides',
        summary: 'Peptide library',
        description:
          'Every peptide by name, optionally of one category. `vendor_count` is the length of the peptide’s ' +
          'vendor ranking (`/peptides/{slug}/vendors`). An unknown category gives an empty list.',
        tags: ['peptides'],
        querystring: T.Object({
          category: T.Optional(
            T.String({ minLength: 1, maxLength: 64, description: 'Category slug, e.g. healing.' }),
          ),
        }),
        response: { 200: PeptideListA, ...commonErrors() },
      },
    },
    (request, reply) => {
      const category = normalizeCategory(request.query.category);
      const state = s.freshness.state;
      const key = cachedReads.aPeptides.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, 0), async () => {
        const snap = await s.catalog.get(state);
        const items = snap.peptides
          .filter((p) => category === undefined || p.category === category)
          .map((peptide) => ({ peptide, vendorCount: snap.peptideRankings.get(peptide.slug)?.length ?? 0 }));
        return cache.set(key, snap.version, toCachedBody(presentPeptideList(items)));
      });
    },
  );

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/peptides/:slug/vendors',
    {
      config: { access: 'read', cachedRead: cachedReads.aRanking },
      schema: {
        operationId: 'getPeptideVendors',
        summary: 'Vendors of a peptide, ranked',
        description:
          'Verified, scored vendors with a tested purity on record (an approved CoA) listing the peptide, rank 1..n ' +
          'by score descending (ties: name, then slug).',
        tags: ['peptides'],
        params: T.Object({ slug: PEPTIDE_SLUG }),
        response: {
          200: PeptideRankingA,
          ...commonErrors({ 404: 'No peptide with that slug (`not_found`).' }),
        },
      },
    },
    (request, reply) => {
      const { slug } = request.params;
      const state = s.freshness.state;
      const key = cachedReads.aRanking.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, 0), async () => {
        const snap = await s.catalog.get(state);
        const ranking = snap.peptideRankings.get(slug);
        if (!ranking) throw notFound('Peptide', slug);
        return cache.set(key, snap.version, toCachedBody(presentPeptideRanking(slug, ranking)));
      });
    },
  );
}
