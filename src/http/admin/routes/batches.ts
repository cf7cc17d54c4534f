import type { FastifyInstance } from 'fastify';
import type { BatchCompletion } from '../../../core/operator/operator.ts';
import type { AppServices } from '../../services.ts';
import { actorOf } from '../operator-header.ts';
import {
  AdminBatchWrite,
  AdminPendingBatches,
  ApproveBody,
  adminErrors,
  BatchParams,
  OperatorHeaders,
  PENDING_PAGE,
  PendingQuery,
  RejectBody,
} from '../schemas.ts';
import { strictJsonBody } from '../strict-body.ts';

const DECISION_ERRORS = {
  404: 'No such vendor, or it has no batch with that number (`not_found`).',
  409: 'The batch is not pending (`conflict`).',
};

/** The review queue of CoA submissions: list what is pending, approve or reject one. */
export function batchRoutes(app: FastifyInstance, s: AppServices): void {
  app.get<{ Querystring: PendingQuery }>(
    '/batches/pending',
    {
      schema: {
        operationId: 'listPendingBatches',
        summary: 'Pending CoA submissions',
        description: 'Oldest submission first. A non-integer or out-of-range `limit`/`offset` is 400.',
        tags: ['batches'],
        querystring: PendingQuery,
        response: { 200: AdminPendingBatches, ...adminErrors() },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? PENDING_PAGE;
      const offset = request.query.offset ?? 0;
      const page = await s.operator.pendingBatches(limit, offset);
      return { data: page.items, total: page.total, limit, offset };
    },
  );

  app.post<{ Params: BatchParams; Body: ApproveBody; Headers: OperatorHeaders }>(
    '/vendors/:slug/batches/:batchId/approve',
    {
      schema: {
        operationId: 'approveBatch',
        summary: 'Approve a pending batch',
        description:
          'The batch becomes evidence: the vendor is recomputed (the response shows the score it moved), ' +
          'and `coa.approved` (plus `score.changed` when the composite moved) goes to the outbox. An ' +
          'approved batch needs purity, lab, testMethod and testedAt: what the submission lacks, send here.',
        tags: ['batches'],
        params: BatchParams,
        headers: OperatorHeaders,
        body: ApproveBody,
        response: { 200: AdminBatchWrite, ...adminErrors(DECISION_ERRORS) },
      },
      preValidation: strictJsonBody({ emptyBody: 'object' }),
    },
    async (request) => {
      const { slug, batchId } = request.params;
      const b = request.body;
      const completion: BatchCompletion = {};
      if (b.purity !== undefined) completion.purity = b.purity;
      if (b.lab !== undefined) completion.lab = b.lab;
      if (b.testMethod !== undefined) completion.testMethod = b.testMethod;
      if (b.testedAt !== undefined) completion.testedAt = b.testedAt;
      const out = await s.operator.reviewBatch(slug, batchId, 'approve', completion, actorOf(request));
      return { batch: out.batch, scoreChanges: out.scoreChanges };
    },
  );

  app.post<{ Params: BatchParams; Body: RejectBody; Headers: OperatorHeaders }>(
    '/vendors/:slug/batches/:batchId/reject',
    {
      schema: {
        operationId: 'rejectBatch',
        summary: 'Reject a pending batch',
        description:
          'A rejected submission is no evidence (a batch lookup answers `missing`); `coa.rejected` goes to ' +
          'the outbox. The decision is kept in the operator decision log with `X-Operator`, the time and ' +
          'the optional `reason`. The body is optional.',
        tags: ['batches'],
        params: BatchParams,
        headers: OperatorHeaders,
        body: RejectBody,
        bodyOptional: true,
        response: { 200: AdminBatchWrite, ...adminErrors(DECISION_ERRORS) },
      },
      preValidation: strictJsonBody({ emptyBody: 'object' }),
    },
    async (request) => {
      const { slug, batchId } = request.params;
      const { reason } = request.body;
      const out = await s.operator.reviewBatch(slug, batchId, 'reject', {}, actorOf(request), reason);
      return { batch: out.batch, scoreChanges: out.scoreChanges };
    },
  );
}
