import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { planAllows } from '../../../core/accounts/plans.ts';
import { DomainError } from '../../../core/errors.ts';
import { EVENT_TYPES } from '../../../core/events/model.ts';
import { MAX_DESCRIPTION_LENGTH, MAX_URL_LENGTH } from '../../../core/webhooks/endpoint-rules.ts';
import type { AttemptAnswer } from '../../../core/webhooks/manage-webhooks.ts';
import type { MessageStatus } from '../../../core/webhooks/model.ts';
import { type Fields, list, oneOf, pageNumber, text } from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';
import { memberOf } from './member-of.ts';
import { planOffer } from './plan-offer.ts';

const ENDPOINT_ID = /^ep_[0-9a-f]{24}$/;
const DELIVERY_ID = /^dlv_[0-9a-f]{24}$/;
const PER_PAGE = 20;
const STATUSES: readonly MessageStatus[] = ['pending', 'succeeded', 'failed'];
/** Rotation overlaps the form offers (the core takes any 0..7 days; 24 h is its default). */
const ROTATE_OVERLAPS = [
  { value: 0, label: 'Now: the old secret stops signing at once' },
  { value: 3600, label: '1 hour' },
  { value: 86_400, label: '24 hours' },
  { value: 604_800, label: '7 days' },
] as const;
const ROTATE_CHOICES = ROTATE_OVERLAPS.map((o) => String(o.value));

/** What a POST's answer shows once: a new secret, an attempt's result, a count. */
interface Shown {
  secret?: { secret: string; previousSecretExpiresAt: string | null; created: boolean };
  attempt?: AttemptAnswer & { kind: 'test' | 'redeliver' };
  notice?: string;
}

/** An id in a path: malformed is as unknown as another account's (404, nothing read). */
function endpointId(raw: string): string {
  if (!ENDPOINT_ID.test(raw))
    throw new DomainError('not_found', `Webhook endpoint '${raw.slice(0, 40)}' does not exist.`);
  return raw;
}

/** The form's events: checkboxes named `events` (a type each, or `*` for every type). */
const eventsOf = (body: Fields): string[] => list(body, 'events', EVENT_TYPES.length + 1, 100);

/**
 * A `<input type="datetime-local">` value (no zone; the page says UTC) as the ISO time the core
 * takes; anything else is handed on as typed, for the core to refuse naming `since`.
 */
function sinceOf(body: Fields): string {
  const raw = text(body, 'since', 40).trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(raw)) return `${raw}:00Z`;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(raw)) return `${raw}Z`;
  return raw;
}

const DONE: Record<string, string> = {
  saved: 'Saved.',
  enabled: 'Enabled: deliveries resume, and failed messages can be recovered below.',
  disabled: 'Disabled: nothing is sent to this endpoint until it is enabled again.',
};

/**
 * Webhooks (/dashboard/webhooks): the account's endpoints, create (the secret shown once), and per
 * endpoint edit, enable/disable, rotate the secret, send a test event, the delivery log with every
 * attempt, redeliver and recover, all through the Webhooks use cases Variant A's routes call.
 * Enterprise only, as the API (plans.ts): other plans see what Enterprise unlocks.
 */
export const webhookPages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { webhooks, config } = ctx.services;

  /** The account, when its plan includes webhooks; else a refusal (nothing is read or changed). */
  const enterprise = (request: FastifyRequest): number => {
    const { account } = memberOf(request);
    if (!planAllows(account.plan, 'enterprise'))
      throw new DomainError(
        'plan_required',
        `Webhooks come with the Enterprise plan; this account is on ${account.plan}. The Webhooks page says what Enterprise unlocks.`,
      );
    return account.id;
  };

  const detail = async (
    request: FastifyRequest<{ Querystring: Fields }>,
    reply: FastifyReply,
    id: string,
    shown: Shown = {},
  ) => {
    const accountId = enterprise(request);
    const endpoint = await webhooks.get(accountId, id);
    const q = request.method === 'GET' ? request.query : undefined;
    const status = text(q, 'status', 20).trim();
    const filter = status === '' ? undefined : oneOf(q, 'status', STATUSES);
    const pageNo = pageNumber(q);
    const deliveries = await webhooks.deliveries(accountId, id, {
      ...(filter ? { status: filter } : {}),
      limit: PER_PAGE,
      offset: (pageNo - 1) * PER_PAGE,
    });
    const done = text(q, 'done', 20);
    return page(request, reply, 'dashboard-webhook', {
      title: `Webhook endpoint ${endpoint.id}`,
      area: 'dashboard',
      endpoint,
      eventTypes: EVENT_TYPES,
      deliveries,
      status: filter ?? '',
      statuses: STATUSES,
      pageNo,
      perPage: PER_PAGE,
      overlaps: ROTATE_OVERLAPS,
      urlMax: MAX_URL_LENGTH,
      descriptionMax: MAX_DESCRIPTION_LENGTH,
      secret: shown.secret ?? null,
      attempt: shown.attempt ?? null,
      notice: shown.notice ?? DONE[done] ?? null,
    });
  };

  app.get<{ Querystring: Fields }>('/webhooks', async (request, reply) => {
    const { account } = memberOf(request);
    const allowed = planAllows(account.plan, 'enterprise');
    return page(request, reply, 'dashboard-webhooks', {
      title: 'Webhooks',
      area: 'dashboard',
      allowed,
      offer: allowed ? null : planOffer(config, account.plan, 'enterprise'),
      endpoints: allowed ? await webhooks.list(account.id) : [],
      eventTypes: EVENT_TYPES,
      urlMax: MAX_URL_LENGTH,
      descriptionMax: MAX_DESCRIPTION_LENGTH,
      notice:
        text(request.query, 'deleted', 5) === '1' ? 'The endpoint is deleted, with its delivery log.' : null,
    });
  });

  app.post<{ Body: Fields; Querystring: Fields }>('/webhooks', async (request, reply) => {
    const accountId = enterprise(request);
    const created = await webhooks.create(accountId, {
      url: text(request.body, 'url', MAX_URL_LENGTH * 2).trim(),
      events: eventsOf(request.body),
      description: text(request.body, 'description', MAX_DESCRIPTION_LENGTH * 2),
    });
    // Shown in this answer only: the secret is never displayed again.
    return detail(request, reply, created.endpoint.id, {
      secret: { secret: created.secret, previousSecretExpiresAt: null, created: true },
    });
  });

  app.get<{ Params: { id: string }; Querystring: Fields }>('/webhooks/:id', async (request, reply) =>
    detail(request, reply, endpointId(request.params.id)),
  );

  app.post<{ Params: { id: string }; Body: Fields; Querystring: Fields }>(
    '/webhooks/:id',
    async (request, reply) => {
      const id = endpointId(request.params.id);
      await webhooks.update(enterprise(request), id, {
        url: text(request.body, 'url', MAX_URL_LENGTH * 2).trim(),
        events: eventsOf(request.body),
        description: text(request.body, 'description', MAX_DESCRIPTION_LENGTH * 2),
        // A checkbox that is not ticked is not sent at all.
        enabled: text(request.body, 'enabled', 10) === 'on',
      });
      return reply.redirect(`/dashboard/webhooks/${id}?done=saved`, 303);
    },
  );

  app.post<{ Params: { id: string }; Body: Fields }>('/webhooks/:id/enabled', async (request, reply) => {
    const id = endpointId(request.params.id);
    const enabled = oneOf(request.body, 'enabled', ['true', 'false']) === 'true';
    await webhooks.update(enterprise(request), id, { enabled });
    return reply.redirect(`/dashboard/webhooks/${id}?done=${enabled ? 'enabled' : 'disabled'}`, 303);
  });

  app.post<{ Params: { id: string }; Body: Fields; Querystring: Fields }>(
    '/webhooks/:id/rotate',
    async (request, reply) => {
      const id = endpointId(request.params.id);
      const overlap = Number(oneOf(request.body, 'overlap', ROTATE_CHOICES));
      const rotated = await webhooks.rotateSecret(enterprise(request), id, overlap);
      return detail(request, reply, id, { secret: { ...rotated, created: false } });
    },
  );

  app.post<{ Params: { id: string }; Body: Fields; Querystring: Fields }>(
    '/webhooks/:id/test',
    async (request, reply) => {
      const id = endpointId(request.params.id);
      const attempt = await webhooks.test(enterprise(request), id);
      return detail(request, reply, id, { attempt: { ...attempt, kind: 'test' } });
    },
  );

  app.post<{ Params: { id: string; delivery: string }; Body: Fields; Querystring: Fields }>(
    '/webhooks/:id/deliveries/:delivery/redeliver',
    async (request, reply) => {
      const id = endpointId(request.params.id);
      const delivery = request.params.delivery;
      if (!DELIVERY_ID.test(delivery))
        throw new DomainError(
          'not_found',
          `Delivery '${delivery.slice(0, 40)}' does not exist for endpoint '${id}'.`,
        );
      const attempt = await webhooks.redeliver(enterprise(request), id, delivery);
      return detail(request, reply, id, { attempt: { ...attempt, kind: 'redeliver' } });
    },
  );

  app.post<{ Params: { id: string }; Body: Fields; Querystring: Fields }>(
    '/webhooks/:id/recover',
    async (request, reply) => {
      const id = endpointId(request.params.id);
      const { requeued } = await webhooks.recover(enterprise(request), id, sinceOf(request.body));
      return detail(request, reply, id, {
        notice:
          requeued === 0
            ? 'No failed message since then: nothing to recover.'
            : `${requeued.toLocaleString('en-US')} failed message(s) queued again, due now.`,
      });
    },
  );

  app.post<{ Params: { id: string }; Body: Fields }>('/webhooks/:id/delete', async (request, reply) => {
    const id = endpointId(request.params.id);
    await webhooks.remove(enterprise(request), id);
    return reply.redirect('/dashboard/webhooks?deleted=1', 303);
  });
};
