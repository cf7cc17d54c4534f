import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { lookupBatch } from '../../../core/batches/lookup-batch.ts';
import { cachedReads } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentBatch } from '../present.ts';
import { BatchLookupB } from '../schemas.ts';

export function lookupBatchRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/batches/:batchId',
    {
      config: { access: 'read', cachedRead: cachedReads.bBatch },
      schema: {
        operationId: 'lookupBatch',
        summary: 'Verify a batch number',
        description:
          'Always HTTP 200: the answer is one of `verified`, `stale` (tested more than 150 days ago), `pending` ' +
          '(submitted, not yet reviewed) or `missing`. Batch numbers match case-insensitively after trimming; ' +
          'URL-encode them. When vendors share a number, `vendor` narrows the lookup; otherwise the strongest ' +
          'record wins (current, then stale, then pending).',
        tags: ['batches'],
        params: T.Object({
          batchId: T.String({ maxLength: 512, description: 'Batch number (1..128 characters).' }),
        }),
        querystring: T.Object({
          vendor: T.Optional(
            T.String({ minLength: 1, maxLength: 64, description: 'Vendor slug to narrow the lookup.' }),
          ),
        }),
        response: { 200: BatchLookupB, ...commonErrors() },
      },
    },
    (request, reply) => {
      const { batchId } = request.params;
      const vendor = request.query.vendor;
      const state = s.freshness.state;
      const now = s.clock.now();
      const key = cachedReads.bBatch.key(request.params, request.query);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const staleAfterDays = s.config.batchStaleAfterDays;
        const found = await lookupBatch(s.store.batches, batchId, now, { vendor, staleAfterDays });
        return cache.set(
          key,
          state.dataVersion,
          toCachedBody(presentBatch(found.answer, state.dataUpdatedAt)),
          found.validUntil,
        );
      });
    },
  );
}
