import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COA_FORM_OVERHEAD_BYTES } from '../../../config/config.ts';
import type { CoaRequest } from '../../../core/coa/verification.ts';
import { DomainError, invalidParameter } from '../../../core/errors.ts';
import { sendJson, toCachedBody } from '../../conditional.ts';
import { sendError } from '../../error-body.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { CoaUploadFormA, CoaVerificationA } from '../coa-schemas.ts';
import { presentVerification } from '../present-coa.ts';
import { UploadBudget } from '../upload-budget.ts';

const PLAN_403 = "The key's plan does not include CoA verification: Enterprise only (`plan_required`).";
const FIELDS = new Set(['peptide', 'batch_id', 'vendor']);
/** `%PDF-`; PDF readers accept the header anywhere in the first 1024 bytes, and so do we. */
const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/**
 * POST /coa/verify (multipart) and GET /coa/verifications/{id}: Variant A, Enterprise only (the
 * guard answers 401/403/429 before any of the body is read). The route only reads the form; the
 * verification is the core's (core/coa/verify-coa.ts).
 */
export async function coaRoutes(app: FastifyInstance, s: AppServices): Promise<void> {
  const maxBytes = s.config.coa.maxBytes;
  const oneUpload = maxBytes + COA_FORM_OVERHEAD_BYTES;
  // An account may hold a quarter of the budget, and always room for one upload.
  const budget = new UploadBudget(
    s.config.coa.maxInflightBytes,
    Math.max(oneUpload, Math.floor(s.config.coa.maxInflightBytes / 4)),
  );
  await app.register(multipart, {
    limits: {
      fileSize: maxBytes + 1,
      // More than one so a second file part is named by readForm (the parts limit bounds them).
      files: 4,
      fields: 8,
      parts: 10,
      fieldSize: 1024,
      fieldNameSize: 100,
      headerPairs: 20,
    },
    throwFileSizeLimit: false,
  });

  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/coa/verify',
    {
      config: { access: 'enterprise' },
      schema: {
        operationId: 'verifyCoa',
        summary: 'Verify a certificate of analysis (PDF upload)',
        description:
          'Reads the PDF (off the main thread, with time, page, memory and size limits), extracts what it states and ' +
          'checks it against the lab records on file. `file` and `peptide` are required, `batch_id` and `vendor` ' +
          'optional. The same file with the same fields, uploaded again by the same account, answers the earlier ' +
          'result. A plausible document with no record on file is queued for review (`pending_review`) and shows as ' +
          "`pending` in Variant B's batch lookup. Enterprise plan only.",
        tags: ['coa'],
        consumes: ['multipart/form-data'],
        multipartBody: CoaUploadFormA,
        response: {
          200: CoaVerificationA,
          ...commonErrors({
            403: PLAN_403,
            413: `The file is larger than COA_MAX_BYTES (default 10 MB) (\`file_too_large\`), refused before the body is read when Content-Length says so.`,
            415: 'The body is not multipart/form-data, or `file` is not a PDF by its magic bytes (`unsupported_media_type`).',
            503: 'Too many uploads are being read right now, or the server is shutting down (`service_unavailable`); retry after `Retry-After` seconds.',
          }),
        },
      },
      // onRequest, after the guard: a refusal goes out before the body is read (and before a
      // client that sent `Expect: 100-continue` is invited to send it: front-door.ts).
      onRequest: (request, reply, done) => {
        const length = Number(request.headers['content-length'] ?? Number.NaN);
        if (Number.isFinite(length) && length > maxBytes + COA_FORM_OVERHEAD_BYTES) {
          sendError(request, reply, 'file_too_large', tooLarge(maxBytes));
          return;
        }
        const principal = request.principal;
        if (!principal) throw new Error('guard admitted a request without a principal');
        const free = budget.tryReserve(principal.accountId, Number.isFinite(length) ? length : oneUpload);
        if (!free) {
          sendError(
            request,
            reply,
            'service_unavailable',
            'Too many uploads are being read right now; retry in a few seconds.',
          );
          return;
        }
        // Released when the connection's answer is done or the connection is gone, whichever
        // comes first: a client that leaves after sending its body is never answered, so
        // onResponse would not run for it.
        reply.raw.once('close', free);
        done();
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      if (!principal) throw new Error('guard admitted a request without a principal');
      const { file, sha256, fields } = await readForm(request, maxBytes);
      // The client may leave while its document waits for a worker: then it is not read.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once('close', onClose);
      const v = await s.coa.verify({
        accountId: principal.accountId,
        file,
        request: fields,
        signal: gone.signal,
        sha256,
      });
      return reply.send(presentVerification(v));
    },
  );

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/coa/verifications/:id',
    {
      config: { access: 'enterprise', conditional: true },
      schema: {
        operationId: 'getCoaVerification',
        summary: 'A CoA verification, again',
        description:
          'The result of an earlier upload by the same account, with the review state of the submission it queued ' +
          "(`review`) as it is now. 404 for an id that is not this account's.",
        tags: ['coa'],
        params: T.Object({
          id: T.String({ minLength: 1, maxLength: 100, description: 'A `verification_id`.' }),
        }),
        response: {
          200: CoaVerificationA,
          ...commonErrors({
            403: PLAN_403,
            404: 'No verification with this id belongs to this account (`not_found`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = request.principal;
      if (!principal) throw new Error('guard admitted a request without a principal');
      const v = await s.coa.get(principal.accountId, request.params.id);
      // An ETag over the answer: a client polling for the review's outcome gets 304 until it moves.
      return sendJson(request, reply, toCachedBody(JSON.stringify(presentVerification(v))));
    },
  );
}

const tooLarge = (maxBytes: number): string =>
  `The file is larger than the limit of ${maxBytes} bytes (${(maxBytes / 1e6).toFixed(1).replace(/\.0$/, '')} MB).`;

/** Reads the form: exactly one `file` that is a PDF by its magic bytes, and the text fields. */
async function readForm(
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ file: Uint8Array; sha256: string; fields: CoaRequest }> {
  if (!request.isMultipart()) {
    throw new DomainError(
      'unsupported_media_type',
      'Send the CoA as multipart/form-data with the PDF in the field `file` and the peptide in `peptide`.',
    );
  }
  const values = new Map<string, string>();
  let file: Buffer | null = null;
  // Hashed as it arrives, so no single stretch of the main thread hashes a whole 10 MB file.
  const hash = createHash('sha256');
  try {
    for await (const part of request.parts()) {
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
      values.set(name, typeof part.value === 'string' ? part.value : String(part.value));
    }
  } catch (e) {
    throw formError(e);
  }
  if (file === null) throw invalidParameter('file', 'is required: the PDF of the certificate of analysis.');
  if (file.length === 0) throw invalidParameter('file', 'is empty.');
  const peptide = values.get('peptide');
  if (peptide === undefined)
    throw invalidParameter('peptide', 'is required: the peptide slug, name or alias.');
  for (const [name, value] of values) {
    if (value.trim() === '') throw invalidParameter(name, 'must not be empty.');
  }
  if (file.subarray(0, 1024).indexOf(PDF_MAGIC) < 0) {
    throw new DomainError(
      'unsupported_media_type',
      'The file is not a PDF: it has no %PDF- header in its first 1024 bytes. Send the certificate as the PDF the lab issued.',
    );
  }
  return {
    file,
    sha256: hash.digest('hex'),
    fields: { peptide, batchId: values.get('batch_id') ?? null, vendor: values.get('vendor') ?? null },
  };
}

/** Multipart framing errors as the documented error body: what, never how. */
function formError(e: unknown): DomainError {
  if (e instanceof DomainError) return e;
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
