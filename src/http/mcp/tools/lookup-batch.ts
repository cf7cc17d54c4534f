import { z } from 'zod';
import { lookupBatch, MAX_BATCH_ID_LENGTH } from '../../../core/batches/lookup-batch.ts';
import { presentBatch } from '../../variant-b/present.ts';
import { defineTool } from './model.ts';
import { envelope } from './shapes.ts';

/** Variant B's batch lookup (`GET /api/v1/batches/{batchId}`), from the same use case. */
export const lookupBatchTool = defineTool({
  name: 'lookup_batch',
  title: 'Verify a batch number',
  description:
    'Looks a batch (lot) number up. `state` is `verified` (an approved CoA tested within the staleness window), ' +
    '`stale` (tested longer ago), `pending` (submitted, not yet reviewed) or `missing` (nothing on record). ' +
    'A tested answer carries the lab, purity, test date and `sourceUrl`, the link to the CoA as the lab ' +
    'published it (empty when none is on record). Batch numbers match case-insensitively after trimming; `vendor` narrows the lookup when vendors ' +
    'share a number (an unknown vendor is `not_found`).',
  access: 'read',
  restNames: { batchId: 'batch_id' },
  input: z.object({
    batch_id: z
      .string()
      .min(1)
      .max(MAX_BATCH_ID_LENGTH)
      .describe(`Batch number (1..${MAX_BATCH_ID_LENGTH} characters).`),
    vendor: z.string().min(1).max(64).optional().describe('Vendor slug to narrow the lookup.'),
  }),
  output: envelope(
    z
      .object({
        state: z.enum(['verified', 'stale', 'pending', 'missing']),
        batchId: z.string(),
        sourceUrl: z
          .string()
          .optional()
          .describe('The CoA as the lab published it, empty when unknown (verified and stale).'),
      })
      .passthrough(),
  ),
  async run({ batch_id, vendor }, { services: s }) {
    const state = s.freshness.state;
    const found = await lookupBatch(s.store.batches, batch_id, s.clock.now(), {
      ...(vendor !== undefined ? { vendor } : {}),
      staleAfterDays: s.config.batchStaleAfterDays,
    });
    return JSON.parse(presentBatch(found.answer, state.dataUpdatedAt)) as Record<string, unknown>;
  },
});
