import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { lookupBatch } from '../../../core/batches/lookup-batch.ts';
import { DAY_MS } from '../../../core/clock.ts';
import { cacheKeys } from '../../cache-keys.ts';
import { respond, toCachedBody } from '../../conditional.ts';
import type { ResponseCache } from '../../response-cache.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { presentBatch } from '../present.ts';
import { BatchLookupB } from '../schemas.ts';

export function lookupBatchRoute(app: FastifyInstance, s: AppServices, cache: ResponseCache): void {
  app.get<{ Params: { batchId: string }; Querystring: { vendor?: string } }>(
    '/batches/:batchId',
    {
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
      const key = cacheKeys.bBatch(vendor, batchId);
      return respond(request, reply, cache.get(key, state.dataVersion, now), async () => {
        const staleAfterDays = s.config.batchStaleAfterDays;
        const answer = await lookupBatch(s.store.batches, batchId, now, { vendor, staleAfterDays });
        // ageDays (and the verified → stale flip) change at whole-day marks after testing.
        const validUntil =
          answer.state === 'verified' || answer.state === 'stale'
            ? Date.parse(answer.testedAt) + (answer.ageDays + 1) * DAY_MS
            : Number.POSITIVE_INFINITY;
        return cache.set(
          key,
          state.dataVersion,
          toCachedBody(presentBatch(answer, state.dataUpdatedAt)),
          validUntil,
        );
      });
    },
  );
}
