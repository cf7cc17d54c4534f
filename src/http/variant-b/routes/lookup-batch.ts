import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { lookupBatch, MAX_BATCH_ID_LENGTH } from '../../../core/batches/lookup-batch.ts';
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
          'HTTP 200 for any batch number: the answer is one of `verified`, `stale` (tested more than 150 days ago), ' +
          '`pending` (submitted, not yet reviewed) or `missing`. Batch numbers match case-insensitively after ' +
          'trimming; URL-encode them. When vendors share a number, `vendor` narrows the lookup; otherwise the ' +
          'strongest record wins (current, then stale, then pending). A `vendor` that does not exist is 404 ' +
          '`not_found`, so a typo in it never makes a real batch look `missing`.',
        tags: ['batches'],
        params: T.Object({
          batchId: T.String({
            maxLength: MAX_BATCH_ID_LENGTH,
            description: `Batch number (1..${MAX_BATCH_ID_LENGTH} characters).`,
          }),
        }),
        querystring: T.Object({
          vendor: T.Optional(
            T.String({
              minLength: 1,
              maxLength: 64,
              description: 'Vendor slug to narrow the lookup; an unknown vendor is 404 `not_found`.',
            }),
          ),
        }),
        response: {
          200: BatchLookupB,
          ...commonErrors({ 404: 'The `vendor` given does not exist (`not_found`).' }),
        },
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
