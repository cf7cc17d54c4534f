import { createHash } from 'node:crypto';
import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { COA_FORM_OVERHEAD_BYTES } from '../config/config.ts';
import type { CoaRequest } from '../core/coa/verification.ts';
import { DomainError, invalidParameter } from '../core/errors.ts';
import type { AppServices } from './services.ts';
import { UploadBudget } from './variant-a/upload-budget.ts';

/**
 * Reading a CoA upload form, for both surfaces that take one: Variant A's `POST /v1/coa/verify`
 * and the dashboard's upload page. The same limits, the same budget of bodies in memory and the
 * same refusals (413, 415, 400 naming the field), so the rules live here once.
 */

const FIELDS = new Set(['peptide', 'batch_id', 'vendor']);
/** `%PDF-`; PDF readers accept the header anywhere in the first 1024 bytes, and so do we. */
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/** @fastify/multipart's limits for a CoA form whose file may be `maxBytes` long. */
export const coaMultipartOptions = (maxBytes: number): FastifyMultipartBaseOptions => ({
  limits: {
    fileSize: maxBytes + 1,
    // More than one so a second file part is named by readCoaForm (the parts limit bounds them).
    files: 4,
    fields: 8,
    parts: 10,
    fieldSize: 1024,
    fieldNameSize: 100,
    headerPairs: 20,
  },
  throwFileSizeLimit: false,
});

const budgets = new WeakMap<AppServices, UploadBudget>();

/**
 * The one budget of upload bodies in memory (COA_INFLIGHT_MB) for an app's services, shared by
 * every route that takes an upload: two surfaces do not get two budgets. An account may hold a
 * quarter of it, and always room for one upload.
 */
export function coaUploadBudget(s: AppServices): UploadBudget {
  let budget = budgets.get(s);
  if (!budget) {
    const oneUpload = s.config.coa.maxBytes + COA_FORM_OVERHEAD_BYTES;
    budget = new UploadBudget(
      s.config.coa.maxInflightBytes,
      Math.max(oneUpload, Math.floor(s.config.coa.maxInflightBytes / 4)),
    );
    budgets.set(s, budget);
  }
  return budget;
}

/** What one upload may reserve when its Content-Length is not announced. */
export const oneUploadBytes = (maxBytes: number): number => maxBytes + COA_FORM_OVERHEAD_BYTES;

export const tooLarge = (maxBytes: number): string =>
  `The file is larger than the limit of ${maxBytes} bytes (${(maxBytes / 1e6).toFixed(1).replace(/\.0$/, '')} MB).`;

/** A leading field the form must open with (the pages' `_csrf`), judged before anything else is read. */
export interface LeadingField {
  name: string;
  /** False refuses the form: readCoaForm throws FormRefused and reads nothing more. */
  accept(value: string): boolean;
}

/** The form's leading field was missing or not accepted (the pages answer 403). */
export class FormRefused extends Error {
  override readonly name = 'FormRefused';
}

export interface CoaFormOptions {
  maxBytes: number;
  leading?: LeadingField;
  /**
   * A browser sends every field of a form, empty or not, and an empty file part when no file was
   * chosen: then an empty optional field is left out, and an empty file is a missing one. The API
   * refuses both (a client that sends a field means it).
   */
  emptyIsAbsent?: boolean;
}

export interface CoaForm {
  file: Uint8Array;
  sha256: string;
  fields: CoaRequest;
}

/** Reads the form: exactly one `file` that is a PDF by its magic bytes, and the text fields. */
export async function readCoaForm(request: FastifyRequest, opts: CoaFormOptions): Promise<CoaForm> {
  const { maxBytes, leading, emptyIsAbsent = false } = opts;
  if (!request.isMultipart()) {
    if (leading) throw new FormRefused('not multipart');
    throw new DomainError(
      'unsupported_media_type',
      'Send the CoA as multipart/form-data with the PDF in the field `file` and the peptide in `peptide`.',
    );
  }
  const values = new Map<string, string>();
  let file: Buffer | null = null;
  let first = true;
  // Hashed as it arrives, so no single stretch of the main thread hashes a whole 10 MB file.
  const hash = createHash('sha256');
  try {
    for await (const part of request.parts()) {
      if (leading && first) {
        first = false;
        if (part.type === 'file' || part.fieldname !== leading.name) {
          if (part.type === 'file') part.file.resume();
          throw new FormRefused(`the form does not open with ${leading.name}`);
        }
        if (part.valueTruncated || !leading.accept(String(part.value))) {
          throw new FormRefused(`${leading.name} not accepted`);
        }
        continue;
      }
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw FIELDS.has(part.fieldname)
            ? invalidParameter(part.fieldname, 'must be a text field, not a file.')
            : invalidParameter(
                part.fieldname.slice(0, 50),
                'is not a field of this form (the PDF goes in `file`).',
              );
        }
        if (file !== null) throw invalidParameter('file', 'is given more than once: upload one PDF.');
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of part.file) {
          size += (chunk as Buffer).length;
          hash.update(chunk as Buffer);
          // At the first byte past the limit, not at the end of the part: a body without a
          // Content-Length is refused as soon as it passes the limit, and the rest is never read.
          if (size > maxBytes) throw new DomainError('file_too_large', tooLarge(maxBytes));
          chunks.push(chunk as Buffer);
        }
        // No file chosen in a browser's form: an empty part without a file name.
        if (emptyIsAbsent && size === 0 && part.filename === '') continue;
        file = Buffer.concat(chunks);
        continue;
      }
      const name = part.fieldname;
      if (name === 'file') throw invalidParameter('file', 'must be a file part (the PDF), not a text field.');
      if (!FIELDS.has(name)) {
        throw invalidParameter(
          name.slice(0, 50),
          'is not a field of this form: it takes file, peptide, batch_id and vendor.',
        );
      }
      if (values.has(name)) throw invalidParameter(name, 'is given more than once.');
      if (part.valueTruncated) throw invalidParameter(name, 'is too long.');
      const value = typeof part.value === 'string' ? part.value : String(part.value);
      if (emptyIsAbsent && value.trim() === '' && name !== 'peptide') continue;
      values.set(name, value);
    }
  } catch (e) {
    throw formError(e);
  }
  // An empty body or one of only closing framing: the leading field never came.
  if (leading && first) throw new FormRefused(`the form has no ${leading.name}`);
  if (file === null) throw invalidParameter('file', 'is required: the PDF of the certificate of analysis.');
  if (file.length === 0) throw invalidParameter('file', 'is empty.');
  const peptide = values.get('peptide');
  if (peptide === undefined || (emptyIsAbsent && peptide.trim() === ''))
    throw invalidParameter('peptide', 'is required: the peptide slug, name or alias.');
  for (const [name, value] of values) {
    if (value.trim() === '') throw invalidParameter(name, 'must not be empty.');
  }
  assertPdf(file);
  return {
    file,
    sha256: hash.digest('hex'),
    fields: { peptide, batchId: values.get('batch_id') ?? null, vendor: values.get('vendor') ?? null },
  };
}

/** Refuses a file that is not a PDF by its magic bytes (the form and the MCP tool `verify_coa`). */
export function assertPdf(file: Uint8Array): void {
  if (Buffer.from(file.buffer, file.byteOffset, Math.min(file.length, 1024)).indexOf(PDF_MAGIC) < 0) {
    throw new DomainError(
      'unsupported_media_type',
      'The file is not a PDF: it has no %PDF- header in its first 1024 bytes. Send the certificate as the PDF the lab issued.',
    );
  }
}

/** Multipart framing errors as the documented refusals: what, never how. */
function formError(e: unknown): Error {
  if (e instanceof DomainError || e instanceof FormRefused) return e;
  const code = (e as { code?: unknown }).code;
  if (code === 'FST_FILES_LIMIT') return invalidParameter('file', 'is given more than once: upload one PDF.');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new DomainError(
      'invalid_parameter',
      'The form has too many parts: it takes file, peptide, batch_id and vendor.',
    );
  }
  if (code === 'FST_PROTO_VIOLATION')
    return new DomainError('invalid_parameter', 'The form has a field name that is not allowed.');
  return new DomainError('invalid_parameter', 'The multipart body is malformed or ends early.');
}
