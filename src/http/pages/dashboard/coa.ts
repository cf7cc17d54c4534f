import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { planAllows } from '../../../core/accounts/plans.ts';
import { MAX_BATCH_ID_LENGTH } from '../../../core/batches/model.ts';
import type { Verification } from '../../../core/coa/verification.ts';
import { DomainError } from '../../../core/errors.ts';
import {
  coaMultipartOptions,
  coaUploadBudget,
  FormRefused,
  oneUploadBytes,
  readCoaForm,
  tooLarge,
} from '../../coa-upload.ts';
import { tokenMatches } from '../cross-site.ts';
import { type Fields, pageNumber } from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { messagePage, type PageContext, page } from '../page-context.ts';
import { memberOf } from './member-of.ts';
import { planOffer } from './plan-offer.ts';

const PER_PAGE = 20;

/** A link the page may render as one: http(s) only (the lab registry's URL with the document's key). */
const linkable = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

/** A verification as the list shows it: what was asked, and what was found. */
const row = (v: Verification) => ({
  id: v.id,
  status: v.status,
  confidence: v.confidence,
  peptide: v.peptideSlug,
  batch: v.request?.batchId ?? v.extracted?.batch ?? null,
  vendor: v.vendorSlug,
  notes: v.notes,
  review: v.review,
  createdAt: v.createdAt,
});

/**
 * CoA verifications (/dashboard/coa): the account's uploads, one upload's detail, and the upload
 * form. The form is read by the same reader, limits and budget as POST /v1/coa/verify
 * (http/coa-upload.ts) and verified by the same use case (CoaVerifier). Enterprise only, as the API.
 */
export const coaPages: PageRoutes = async (app: FastifyInstance, ctx: PageContext) => {
  const { coa, config } = ctx.services;
  const maxBytes = config.coa.maxBytes;
  const budget = coaUploadBudget(ctx.services);

  const enterprise = (request: FastifyRequest): number => {
    const { account } = memberOf(request);
    if (!planAllows(account.plan, 'enterprise'))
      throw new DomainError(
        'plan_required',
        `CoA verification comes with the Enterprise plan; this account is on ${account.plan}. The CoA verifications page says what Enterprise unlocks.`,
      );
    return account.id;
  };

  app.get<{ Querystring: Fields }>('/coa', async (request, reply) => {
    const { account } = memberOf(request);
    const allowed = planAllows(account.plan, 'enterprise');
    const pageNo = pageNumber(request.query);
    const uploads = allowed
      ? await coa.list(account.id, { limit: PER_PAGE, offset: (pageNo - 1) * PER_PAGE })
      : { total: 0, items: [] };
    return page(request, reply, 'dashboard-coa', {
      title: 'CoA verifications',
      area: 'dashboard',
      allowed,
      offer: allowed ? null : planOffer(config, account.plan, 'enterprise'),
      uploads: { total: uploads.total, items: uploads.items.map(row) },
      pageNo,
      perPage: PER_PAGE,
      maxMb: (maxBytes / 1e6).toFixed(1).replace(/\.0$/, ''),
      batchMax: MAX_BATCH_ID_LENGTH,
    });
  });

  app.get<{ Params: { id: string } }>('/coa/:id', async (request, reply) => {
    const v = await coa.get(enterprise(request), request.params.id);
    return page(request, reply, 'dashboard-coa-detail', {
      // The id is long and unbroken: it goes in the facts, not the heading (390 px screens).
      title: `CoA verification: ${v.peptideSlug}`,
      area: 'dashboard',
      v: row(v),
      extracted: v.extracted,
      purityClaim: v.purityClaim,
      purityVerified: v.purityVerified,
      peptideMatch: v.peptideMatch,
      labLink: linkable(v.labVerificationUrl),
      uploaded: (request.query as Fields)?.uploaded === '1',
    });
  });

  // Multipart only here: the rest of the pages take small url-encoded forms.
  await app.register(async (upload) => {
    await upload.register(multipart, coaMultipartOptions(maxBytes));
    upload.post('/coa', { config: { csrf: 'handler' } }, async (request, reply) => uploadCoa(request, reply));
  });

  async function uploadCoa(request: FastifyRequest, reply: FastifyReply) {
    const accountId = enterprise(request);
    const length = Number(request.headers['content-length'] ?? Number.NaN);
    // Refused before any of the body is read, as the API does.
    if (Number.isFinite(length) && length > oneUploadBytes(maxBytes))
      throw new DomainError('file_too_large', tooLarge(maxBytes));
    const free = budget.tryReserve(accountId, Number.isFinite(length) ? length : oneUploadBytes(maxBytes));
    if (!free)
      throw new DomainError(
        'service_unavailable',
        'Too many uploads are being read right now; try again in a few seconds.',
      );
    // Released when the answer is done or the connection is gone, whichever comes first.
    reply.raw.once('close', free);
    const session = request.signedIn;
    if (!session) throw new Error('dashboard page reached without a session');
    let form: Awaited<ReturnType<typeof readCoaForm>>;
    try {
      // The form's first field is its token: checked before a byte of the file is read.
      form = await readCoaForm(request, {
        maxBytes,
        emptyIsAbsent: true,
        leading: { name: '_csrf', accept: (v) => tokenMatches(v, session.csrfToken) },
      });
    } catch (e) {
      if (e instanceof FormRefused)
        return messagePage(
          request,
          reply,
          403,
          'Refused',
          'This form is out of date (it belongs to an earlier session). Reload the page and try again.',
        );
      throw e;
    }
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const v = await coa.verify({
      accountId,
      file: form.file,
      request: form.fields,
      signal: gone.signal,
      sha256: form.sha256,
    });
    return reply.redirect(`/dashboard/coa/${v.id}?uploaded=1`, 303);
  }
};
