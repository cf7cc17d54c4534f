import type { FastifyInstance } from 'fastify';
import { BATCH_DECISIONS } from '../../../core/operator/actions.ts';
import type { BatchAdminView } from '../../../core/operator/model.ts';
import type { BatchCompletion } from '../../../core/operator/operator.ts';
import {
  type Fields,
  optionalDay,
  optionalDecimal,
  optionalText,
  optionalWhole,
  reasonOf,
  requiredText,
} from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';
import { actionLines } from './action-lines.ts';
import { operatorOf } from './operator-of.ts';

/** Submissions per page: each carries up to 20 uploads with their fields and notes. */
const PER_PAGE = 10;
/** The latest decisions on submissions shown under the queue, newest first. */
const DECISIONS_SHOWN = 10;

/** What the approve form holds for a submission: the record's facts, else what the document states. */
export interface ApprovalDefaults {
  purity: string;
  lab: string;
  testMethod: string;
  testedDay: string;
  /** The stored test time, so an unchanged day keeps it exactly. */
  testedAt: string;
}

export function approvalDefaults(b: BatchAdminView): ApprovalDefaults {
  const stated = b.uploads?.find((u) => u.extracted !== null)?.extracted ?? null;
  const purity = b.purity ?? stated?.purity ?? null;
  return {
    purity: purity === null ? '' : String(purity),
    // The document prints the lab's name; the record needs the registry's slug (shown beside it).
    lab: b.lab ?? '',
    testMethod: b.testMethod ?? stated?.method ?? '',
    testedDay: b.testedAt ? b.testedAt.slice(0, 10) : (stated?.testDate?.iso ?? ''),
    testedAt: b.testedAt ?? '',
  };
}

/** The four test facts an approval needs that the submission does not hold yet. */
export function missingFacts(b: BatchAdminView): string[] {
  const missing: string[] = [];
  if (b.purity === null) missing.push('purity');
  if (b.lab === null) missing.push('lab');
  if (b.testMethod === null) missing.push('method');
  if (b.testedAt === null) missing.push('test date');
  return missing;
}

/**
 * The approve form as the use case's completion: each fact as the operator left it. A day that is
 * the stored test time's day keeps that time (the form shows days; a record may hold a time).
 */
export function completionOf(body: Fields): BatchCompletion {
  const c: BatchCompletion = {};
  const purity = optionalDecimal(body, 'purity', 0, 100);
  if (purity !== null) c.purity = purity;
  const lab = optionalText(body, 'lab', 100);
  if (lab !== '') c.lab = lab;
  const method = optionalText(body, 'testMethod', 100);
  if (method !== '') c.testMethod = method;
  const day = optionalDay(body, 'testedAt');
  if (day !== null) {
    const was = optionalText(body, 'testedAtWas', 40);
    c.testedAt = was.slice(0, 10) === day ? was : `${day}T00:00:00.000Z`;
  }
  return c;
}

const NOTICES: Record<string, string> = {
  approved: 'Approved: the batch is evidence now and the vendor was recomputed.',
  rejected: 'Rejected: the submission counts as no evidence.',
};

/**
 * The CoA review queue: pending submissions with what each upload's document states and what the
 * verifier noted; approve (the test facts prefilled, editable) or reject with a reason. Both go
 * through Operator.reviewBatch, as `purerank batches approve|reject` and the operator API do, and
 * the latest decisions (who, when, why) are listed under the queue from the decision log.
 */
export const reviewPages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { operator } = ctx.services;

  app.get<{ Querystring: Fields }>('/reviews', async (request, reply) => {
    const offset = optionalWhole(request.query, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0;
    const queue = await operator.pendingBatches(PER_PAGE, offset);
    const decisions = await operator.actions({ kinds: BATCH_DECISIONS, limit: DECISIONS_SHOWN });
    const done = optionalText(request.query, 'done', 20);
    return page(request, reply, 'console-reviews', {
      title: 'Review queue',
      area: 'console',
      notice: NOTICES[done] ?? null,
      subject: done in NOTICES ? subjectOf(request.query) : null,
      scoreMove: done in NOTICES ? optionalText(request.query, 'score', 20) : '',
      total: queue.total,
      offset,
      perPage: PER_PAGE,
      items: queue.items.map((b) => ({
        ...b,
        defaults: approvalDefaults(b),
        missing: missingFacts(b),
        labsNamed: [
          ...new Set((b.uploads ?? []).flatMap((u) => (u.extracted?.lab ? [u.extracted.lab] : []))),
        ],
      })),
      decisions: actionLines(decisions),
    });
  });

  app.post<{ Body: Fields }>('/reviews/approve', async (request, reply) => {
    const { vendor, batch } = target(request.body);
    const completion = completionOf(request.body);
    const out = await operator.reviewBatch(vendor, batch, 'approve', completion, operatorOf(request));
    return reply.redirect(doneUrl('approved', vendor, out.batch.batchId, out.scoreChanges), 303);
  });

  app.post<{ Body: Fields }>('/reviews/reject', async (request, reply) => {
    const { vendor, batch } = target(request.body);
    // Required here, as the issue asks of a rejection; kept in the decision log with who and when.
    const reason = reasonOf(request.body);
    const out = await operator.reviewBatch(vendor, batch, 'reject', {}, operatorOf(request), reason);
    return reply.redirect(doneUrl('rejected', vendor, out.batch.batchId, out.scoreChanges), 303);
  });
};

const target = (body: Fields) => ({
  vendor: requiredText(body, 'vendor', 100),
  batch: requiredText(body, 'batch', 200),
});

function doneUrl(
  done: string,
  vendor: string,
  batch: string,
  changes: { vendorSlug: string; previous: number | null; next: number }[],
): string {
  const q = new URLSearchParams({ done, vendor, batch });
  const moved = changes.find((c) => c.vendorSlug === vendor);
  if (moved) q.set('score', `${moved.previous ?? '—'} → ${moved.next}`);
  return `/console/reviews?${q}`;
}

function subjectOf(query: Fields): { vendor: string; batch: string } | null {
  const vendor = optionalText(query, 'vendor', 100);
  const batch = optionalText(query, 'batch', 200);
  return vendor && batch ? { vendor, batch } : null;
}
