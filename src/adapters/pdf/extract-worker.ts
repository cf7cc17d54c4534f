import type { PdfReadResult } from '../../core/coa/model.ts';
import { type ReadLimits, readPdfText } from './read-pdf.ts';

export interface ExtractTask {
  bytes: Uint8Array;
  limits: ReadLimits;
}

/** The worker-thread entry point piscina calls: one untrusted document per task. */
export default function extract(task: ExtractTask): Promise<PdfReadResult> {
  return readPdfText(task.bytes, task.limits);
}
