import { setPriority } from 'node:os';
import { extractFields } from '../../core/coa/extract-fields.ts';
import type { DocumentReading } from '../../core/coa/model.ts';
import { sanitizeFields, sanitizeMetadata } from '../../core/coa/sanitize.ts';
import { type ReadLimits, readPdfText } from './read-pdf.ts';

// Reading PDFs yields to serving requests: on Linux a thread has its own nice value, and 0 names
// the calling thread, so this lowers only this worker's priority, not the service's. Elsewhere it
// may apply to the process or be refused; neither matters enough to stop a read.
try {
  setPriority(0, 10);
} catch {
  // Not permitted here: the worker runs at the process's priority.
}

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
    metadata: sanitizeMetadata(read.text.metadata),
    pageCount: read.text.pageCount,
  };
}
