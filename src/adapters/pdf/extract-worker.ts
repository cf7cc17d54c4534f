import { extractFields } from '../../core/coa/extract-fields.ts';
import type { DocumentReading } from '../../core/coa/model.ts';
import { sanitizeFields } from '../../core/coa/sanitize.ts';
import { type ReadLimits, readPdfText } from './read-pdf.ts';

export interface ExtractTask {
  bytes: Uint8Array;
  limits: ReadLimits;
}

/**
 * The worker-thread entry point piscina calls: one untrusted document per task, read and its
 * fields extracted here, under the pool's time and memory limits, so no attacker-shaped input is
 * ever worked on by the main thread.
 */
export default async function extract(task: ExtractTask): Promise<DocumentReading> {
  const read = await readPdfText(task.bytes, task.limits);
  if (!read.ok) return read;
  return {
    ok: true,
    fields: sanitizeFields(extractFields(read.text)),
    metadata: read.text.metadata,
    pageCount: read.text.pageCount,
  };
}
