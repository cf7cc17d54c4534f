import type { Command } from 'commander';
import type { BatchAdminView, UploadSummary } from '../core/operator/model.ts';
import type { BatchCompletion } from '../core/operator/operator.ts';
import { withContainer } from './context.ts';
import {
  actorOf,
  actorOption,
  cell,
  decimal,
  jsonOption,
  out,
  printJson,
  printOutcome,
  reasonText,
  table,
  wholeNumber,
} from './operator-io.ts';

/** As the operator API's GET /admin/v1/batches/pending. */
const PAGE_MAX = 200;

export function batchesCommand(program: Command): void {
  const batches = program
    .command('batches')
    .description('Review submitted batches (certificates of analysis): list, approve, reject.');

  jsonOption(
    batches
      .command('pending')
      .option('--limit <n>', `at most this many (1 to ${PAGE_MAX})`, '50')
      .option('--offset <n>', 'skip this many', '0')
      .description('List pending submissions, oldest first.'),
  ).action(async (o: { limit: string; offset: string; json?: boolean }) => {
    const limit = wholeNumber('--limit', o.limit, 1, PAGE_MAX);
    const offset = wholeNumber('--offset', o.offset, 0, Number.MAX_SAFE_INTEGER);
    await withContainer(async ({ operator: op }) => {
      const page = await op.pendingBatches(limit, offset);
      if (o.json) {
        printJson(page);
        return;
      }
      if (page.items.length === 0) {
        out(
          page.total === 0
            ? 'no pending batches'
            : `no pending batches at offset ${offset} (${page.total} in all)`,
        );
        return;
      }
      out(
        table(
          ['VENDOR', 'BATCH', 'PEPTIDE', 'SUBMITTED', 'PURITY', 'LAB', 'METHOD', 'TESTED', 'UPLOADS'],
          page.items.map((b) => [
            b.vendorSlug,
            b.batchId,
            b.peptideSlug,
            cell(b.submittedAt),
            cell(b.purity),
            cell(b.lab),
            cell(b.testMethod),
            cell(b.testedAt),
            String(b.uploadsTotal ?? b.uploads?.length ?? 0),
          ]),
        ),
      );
      // What each CoA upload stated and what the verifier noted: what the reviewer decides on.
      for (const b of page.items) {
        for (const u of b.uploads ?? []) out(uploadLine(b, u));
        const more = (b.uploadsTotal ?? 0) - (b.uploads?.length ?? 0);
        if (more > 0)
          out(
            `  ${b.vendorSlug} ${b.batchId}: and ${more} more uploads (the first ${b.uploads?.length ?? 0} are shown)`,
          );
      }
      const last = offset + page.items.length;
      out(
        `${offset + 1}–${last} of ${page.total} pending${last < page.total ? ` (next: --offset ${last})` : ''}`,
      );
    });
  });

  actorOption(
    batches
      .command('approve')
      .argument('<vendor>', 'vendor slug')
      .argument('<batch>', 'batch id (matched case-insensitively)')
      .option('--purity <percent>', 'tested purity, 0 to 100')
      .option('--lab <slug>', 'testing laboratory (a known lab slug)')
      .option('--method <text>', 'test method, e.g. HPLC')
      .option('--tested-at <time>', 'ISO 8601 time of the test, not in the future')
      .description(
        'Approve a pending batch. Approval needs purity, lab, method and test time: the options supply what the submission lacks (and replace what it has).',
      ),
  ).action(
    async (
      vendor: string,
      batchId: string,
      o: { purity?: string; lab?: string; method?: string; testedAt?: string; as?: string },
    ) => {
      const completion: BatchCompletion = {};
      if (o.purity !== undefined) completion.purity = decimal('--purity', o.purity, 0, 100);
      if (o.lab !== undefined) completion.lab = o.lab;
      if (o.method !== undefined) completion.testMethod = o.method;
      if (o.testedAt !== undefined) completion.testedAt = o.testedAt;
      const actor = actorOf(o);
      await withContainer(async ({ operator: op }) => {
        const r = await op.reviewBatch(vendor, batchId, 'approve', completion, actor);
        out(`approved batch ${r.batch.batchId} of ${vendor}: ${facts(r.batch)}`);
        printOutcome(r);
      });
    },
  );

  actorOption(
    batches
      .command('reject')
      .argument('<vendor>', 'vendor slug')
      .argument('<batch>', 'batch id (matched case-insensitively)')
      .option('--reason <text>', 'why (optional, at most 500 characters; kept in the decision log)')
      .description('Reject a pending batch: it never counts as evidence.'),
  ).action(async (vendor: string, batchId: string, o: { reason?: string; as?: string }) => {
    const reason = o.reason === undefined ? undefined : reasonText(o.reason);
    const actor = actorOf(o);
    await withContainer(async ({ operator: op }) => {
      const r = await op.reviewBatch(vendor, batchId, 'reject', {}, actor, reason);
      out(`rejected batch ${r.batch.batchId} of ${vendor} (${r.batch.peptideSlug})`);
      printOutcome(r);
    });
  });
}

function uploadLine(b: BatchAdminView, u: UploadSummary): string {
  const f = u.extracted;
  const stated = f
    ? `lab ${cell(f.lab)}, ${cell(f.compound)}, batch ${cell(f.batch)}, purity ${cell(f.purityText)}, tested ${cell(f.testDate?.text ?? null)}${f.client ? `, client ${f.client}` : ''}`
    : 'unreadable';
  const notes = u.notes.map((n) => n.code).join(', ');
  return `  ${b.vendorSlug} ${b.batchId}: upload ${u.verificationId} by ${u.account} at ${u.uploadedAt}, ${u.status} (confidence ${u.confidence}); states ${stated}${notes ? `; notes: ${notes}` : ''}${u.filePath ? `; file ${u.filePath}` : ''}`;
}

const facts = (b: BatchAdminView): string =>
  `${b.peptideSlug}, purity ${cell(b.purity)} %, lab ${cell(b.lab)}, ${cell(b.testMethod)}, tested ${cell(b.testedAt)}`;
