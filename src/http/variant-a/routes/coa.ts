import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type as T } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { COA_FORM_OVERHEAD_BYTES } from '../../../config/config.ts';
import {
  coaMultipartOptions,
  coaUploadBudget,
  oneUploadBytes,
  readCoaForm,
  tooLarge,
} from '../../coa-upload.ts';
import { sendJson, toCachedBody } from '../../conditional.ts';
import { sendError } from '../../error-body.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import { CoaUploadFormA, CoaVerificationA } from '../coa-schemas.ts';
import { presentVerification } from '../present-coa.ts';

const PLAN_403 = "The key's plan does not include CoA verification: Enterprise only (`plan_required`).";

/**
 * POST /coa/verify (multipart) and GET /coa/verifications/{id}: Variant A, Enterprise only (the
 * guard answers 401/403/429 before any of the body is read). The route only reads the form; the
 * verification is the core's (core/coa/verify-coa.ts).
 */
export async function coaRoutes(app: FastifyInstance, s: AppServices): Promise<void> {
  const maxBytes = s.config.coa.maxBytes;
  const oneUpload = oneUploadBytes(maxBytes);
  // The one budget of bodies in memory, shared with the dashboard's upload page (coa-upload.ts).
  const budget = coaUploadBudget(s);
  await app.register(multipart, coaMultipartOptions(maxBytes));

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
            503: 'Too many uploads are being read right now, the server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds.',
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
      const { file, sha256, fields } = await readCoaForm(request, { maxBytes });
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
