import { createHash } from 'node:crypto';
import { z } from 'zod';
import { DomainError, invalidParameter } from '../../../core/errors.ts';
import { assertPdf, tooLarge } from '../../coa-upload.ts';
import { presentVerification } from '../../variant-a/present-coa.ts';
import { defineTool } from './model.ts';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decoded bytes of a base64 text: exact, or at most two bytes over (the padding's share). */
const decodedBytes = (text: string): number => Math.floor((text.length * 3) / 4);

/**
 * `POST /v1/coa/verify` as a tool: the same CoaVerifier, the same size limit (COA_MAX_BYTES, of the
 * decoded file), the same PDF check, Enterprise only. The body's bytes were reserved against the
 * upload budget before it was read (mcp/caller.ts).
 */
export const verifyCoaTool = defineTool({
  name: 'verify_coa',
  title: 'Verify a certificate of analysis',
  description:
    'Reads a CoA PDF (base64, at most the upload limit, 10 MB by default) and checks what it states against the ' +
    'lab records on file: `status` is verified, mismatch, rejected, pending_review (plausible, queued for ' +
    'review) or unreadable, with the extracted fields and notes. Enterprise plan only.',
  access: 'enterprise',
  input: z.object({
    pdf_base64: z.string().min(1).describe('The PDF, base64-encoded (standard alphabet).'),
    peptide: z.string().min(1).max(200).describe('Peptide slug, name or alias the CoA should be for.'),
    batch_id: z.string().min(1).max(200).optional().describe('The batch (lot) number it should state.'),
    vendor: z.string().min(1).max(64).optional().describe('The vendor slug it should belong to.'),
  }),
  output: z
    .object({
      verification_id: z.string(),
      status: z.enum(['verified', 'mismatch', 'rejected', 'pending_review', 'unreadable']),
      confidence: z.number(),
      peptide_match: z.boolean(),
      purity_verified: z.boolean(),
      notes: z.array(z.object({ code: z.string(), message: z.string() })),
      extracted: z.record(z.unknown()),
      peptide: z.string(),
      created_at: z.string(),
    })
    .passthrough(),
  async run(args, { services: s, principal, signal }) {
    // As the upload form: a field that is sent must say something.
    for (const name of ['peptide', 'batch_id', 'vendor'] as const) {
      if (args[name]?.trim() === '') throw invalidParameter(name, 'must not be empty.');
    }
    const maxBytes = s.config.coa.maxBytes;
    const text = args.pdf_base64;
    if (decodedBytes(text) > maxBytes + 2) throw new DomainError('file_too_large', tooLarge(maxBytes));
    if (!BASE64.test(text) || text.length % 4 === 1)
      throw invalidParameter('pdf_base64', 'is not base64 (standard alphabet, optional = padding).');
    const file = Buffer.from(text, 'base64');
    if (file.length > maxBytes) throw new DomainError('file_too_large', tooLarge(maxBytes));
    if (file.length === 0) throw invalidParameter('pdf_base64', 'is empty.');
    assertPdf(file);
    const v = await s.coa.verify({
      accountId: principal.accountId,
      file,
      request: { peptide: args.peptide, batchId: args.batch_id ?? null, vendor: args.vendor ?? null },
      signal,
      sha256: createHash('sha256').update(file).digest('hex'),
    });
    return presentVerification(v) as Record<string, unknown>;
  },
});
