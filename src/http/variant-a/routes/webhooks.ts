import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { invalidParameter } from '../../../core/errors.ts';
import { checkEvents } from '../../../core/webhooks/endpoint-rules.ts';
import { strictJsonBody } from '../../admin/strict-body.ts';
import { sendJson, toCachedBody } from '../../conditional.ts';
import { unsupportedMediaType } from '../../errors.ts';
import type { AppServices } from '../../services.ts';
import { commonErrors } from '../../shared-schemas.ts';
import {
  presentAttemptAnswer,
  presentCreated,
  presentDeliveryList,
  presentEndpoint,
  presentEndpointList,
  presentSecret,
} from '../present-webhooks.ts';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  EndpointParams,
  RecoverBody,
  RotateSecretBody,
  UpdateWebhookBody,
  WebhookAttemptResultA,
  WebhookDeliveryListA,
  WebhookEndpointA,
  WebhookEndpointCreatedA,
  WebhookEndpointListA,
  WebhookRecoverResultA,
  WebhookSecretA,
} from '../webhook-schemas.ts';

export const WEBHOOKS_PLAN_403 =
  "The key's plan does not include webhooks: Enterprise only (`plan_required`).";
const NOT_FOUND_404 =
  "No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly " +
  'like one that does not exist.';
/** The largest body these routes take: a URL of 2,048 characters, 500 of description, the kinds. */
const BODY_LIMIT = 16 * 1024;
const TAGS = ['webhooks'];

/** The error answers of a route; one that takes an id (hence has a 404) also refuses a malformed one. */
const errors = (extra: Record<number, string> = {}) =>
  commonErrors({
    400:
      'Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed.' +
      (extra[404] ? ' A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404.' : ''),
    403: WEBHOOKS_PLAN_403,
    ...extra,
  });

/** The caller's account: the guard admitted the request with its key. */
function accountOf(request: FastifyRequest): number {
  const principal = request.principal;
  if (!principal) throw new Error('guard admitted a request without a principal');
  return principal.accountId;
}

/**
 * The core's own words for two refusals a schema would phrase less clearly: an empty `events`
 * list, and a PATCH that changes nothing. Runs after the exact-type check, before the schema.
 */
const explainEmpty =
  (patch: boolean): preValidationAsyncHookHandler =>
  async (request) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object') return;
    if (patch && Object.keys(body).length === 0) {
      throw invalidParameter('body', 'must change at least one of url, events, description and enabled.');
    }
    if (Array.isArray(body.events) && body.events.length === 0) checkEvents([]);
  };

const JSON_TYPE = /^application\/json\s*(;|$)/i;

/**
 * A body must be JSON. Fastify also parses `text/plain` (into a string, which the schema would
 * call "not an object"); here it is what it is, an unsupported media type (415, as documented).
 */
const jsonOnly: preValidationAsyncHookHandler = async (request, reply) => {
  if (request.body !== undefined && !JSON_TYPE.test(request.headers['content-type'] ?? '')) {
    return unsupportedMediaType(request, reply);
  }
};

/** No answer that carries a secret may be kept by a cache on the way. */
const NO_STORE = 'no-store';

/**
 * Variant A's webhook endpoints (issue [7]; docs/webhooks.md), Enterprise only: the guard answers
 * 403 `plan_required` to other plans before anything is read. The routes read and present; the
 * rules (URL policy, event types, overlap, ownership) are the core's (core/webhooks/).
 */
export function webhookRoutes(app: FastifyInstance, s: AppServices): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = s.webhooks;

  r.post(
    '/webhooks',
    {
      config: { access: 'enterprise' },
      bodyLimit: BODY_LIMIT,
      schema: {
        operationId: 'createWebhook',
        summary: 'Register a webhook endpoint',
        description:
          "Registers an endpoint that receives signed `POST`s for events about this account's vendors (the " +
          'vendors it owns), of the kinds in `events`. The answer carries the signing `secret`, shown here and ' +
          'never again (a rotation shows the new one). Deliveries follow Standard Webhooks: `webhook-id`, ' +
          '`webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` (docs/webhooks.md). The URL is ' +
          'checked now (https, public address) and again on every delivery. Enterprise plan only.',
        tags: TAGS,
        body: CreateWebhookBody,
        response: {
          201: WebhookEndpointCreatedA,
          ...errors({
            409: 'The account has WEBHOOK_MAX_ENDPOINTS (default 20) endpoints already (`conflict`).',
          }),
        },
      },
      preValidation: [jsonOnly, strictJsonBody(), explainEmpty(false)],
    },
    async (request, reply) => {
      const created = await webhooks.create(accountOf(request), request.body);
      return reply.code(201).header('cache-control', NO_STORE).send(presentCreated(created));
    },
  );

  r.get(
    '/webhooks',
    {
      config: { access: 'enterprise', conditional: true },
      schema: {
        operationId: 'listWebhooks',
        summary: "The account's webhook endpoints",
        description:
          'Every endpoint of this account, oldest first, without secrets. Not paged: an account has at most ' +
          'WEBHOOK_MAX_ENDPOINTS (default 20).',
        tags: TAGS,
        response: { 200: WebhookEndpointListA, ...errors() },
      },
    },
    async (request, reply) => {
      const list = await webhooks.list(accountOf(request));
      return sendJson(request, reply, toCachedBody(JSON.stringify(presentEndpointList(list))));
    },
  );

  r.get(
    '/webhooks/:id',
    {
      config: { access: 'enterprise', conditional: true },
      schema: {
        operationId: 'getWebhook',
        summary: 'A webhook endpoint',
        description:
          'The endpoint and its state: `enabled`, and when disabled why (`disabled_reason`) and since when ' +
          '(`disabled_at`); `failing_since` while deliveries fail. Never the secret.',
        tags: TAGS,
        params: EndpointParams,
        response: { 200: WebhookEndpointA, ...errors({ 404: NOT_FOUND_404 }) },
      },
    },
    async (request, reply) => {
      const e = await webhooks.get(accountOf(request), request.params.id);
      return sendJson(request, reply, toCachedBody(JSON.stringify(presentEndpoint(e))));
    },
  );

  r.patch(
    '/webhooks/:id',
    {
      config: { access: 'enterprise' },
      bodyLimit: BODY_LIMIT,
      schema: {
        operationId: 'updateWebhook',
        summary: 'Change a webhook endpoint',
        description:
          'Changes `url`, `events`, `description` or `enabled` (at least one; the others stay). The same rules ' +
          'as at registration apply. `enabled: true` on a disabled endpoint clears `disabled_reason`, ' +
          '`disabled_at` and `failing_since`; `enabled: false` disables it with `disabled_reason: "manual"`. ' +
          'The secret does not change (see rotate_secret).',
        tags: TAGS,
        params: EndpointParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpointA, ...errors({ 404: NOT_FOUND_404 }) },
      },
      preValidation: [jsonOnly, strictJsonBody(), explainEmpty(true)],
    },
    async (request) => {
      const e = await webhooks.update(accountOf(request), request.params.id, request.body);
      return presentEndpoint(e);
    },
  );

  r.delete(
    '/webhooks/:id',
    {
      config: { access: 'enterprise' },
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint',
        description:
          'Deletes the endpoint with its delivery log. Nothing more is sent to it, including what was pending. ' +
          'No body.',
        tags: TAGS,
        params: EndpointParams,
        response: { 204: { description: 'Deleted.' }, ...errors({ 404: NOT_FOUND_404 }) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(accountOf(request), request.params.id);
      return reply.code(204).send();
    },
  );

  r.post(
    '/webhooks/:id/rotate_secret',
    {
      config: { access: 'enterprise' },
      bodyLimit: BODY_LIMIT,
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: "Rotate an endpoint's signing secret",
        description:
          'A new secret, shown in this answer only. For `overlap_seconds` (default 86,400, at most 604,800; ' +
          'body optional) every delivery carries two signatures, space-separated: the new secret’s and the old ' +
          'one’s, so a receiver holding either verifies while you deploy the new one. After it only the new ' +
          'secret signs. `overlap_seconds: 0` retires the old secret at once. Rotating again during an overlap ' +
          'replaces the old secret by the one current until now.',
        tags: TAGS,
        params: EndpointParams,
        body: RotateSecretBody,
        bodyOptional: true,
        response: { 200: WebhookSecretA, ...errors({ 404: NOT_FOUND_404 }) },
      },
      preValidation: [jsonOnly, strictJsonBody({ emptyBody: 'object' })],
    },
    async (request, reply) => {
      const rotated = await webhooks.rotateSecret(
        accountOf(request),
        request.params.id,
        request.body.overlap_seconds,
      );
      return reply.header('cache-control', NO_STORE).send(presentSecret(rotated));
    },
  );

  r.post(
    '/webhooks/:id/test',
    {
      config: { access: 'enterprise' },
      schema: {
        operationId: 'testWebhook',
        summary: 'Send a test event now',
        description:
          'Sends a signed `webhook.test` event (`data: {endpoint_id, message}`) to the endpoint now, whether it ' +
          'is enabled or not, and answers with the attempt: HTTP status, latency, error. The answer is 200 ' +
          'whatever the receiver said; `attempt.error` is null only for a 2xx. The test is logged among the ' +
          'deliveries (settled by its one attempt: `succeeded` or `failed`, never retried; `redeliver` sends it ' +
          'again). A 410 disables the endpoint as any delivery would, and `endpoint` shows it. No body.',
        tags: TAGS,
        params: EndpointParams,
        response: { 200: WebhookAttemptResultA, ...errors({ 404: NOT_FOUND_404 }) },
      },
    },
    async (request) => presentAttemptAnswer(await webhooks.test(accountOf(request), request.params.id)),
  );

  r.get(
    '/webhooks/:id/deliveries',
    {
      config: { access: 'enterprise', conditional: true },
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: "An endpoint's delivery log",
        description:
          'The messages to this endpoint, newest first, each with its attempts (time, HTTP status, latency, ' +
          'error, what started it) and, while `pending`, when the next attempt is due. Settled messages are ' +
          'kept 30 days.',
        tags: TAGS,
        params: EndpointParams,
        querystring: DeliveriesQuery,
        response: { 200: WebhookDeliveryListA, ...errors({ 404: NOT_FOUND_404 }) },
      },
    },
    async (request, reply) => {
      const { status, event_type: eventType, page, per_page: perPage } = request.query;
      const list = await webhooks.deliveries(accountOf(request), request.params.id, {
        ...(status ? { status } : {}),
        ...(eventType ? { eventType } : {}),
        limit: perPage,
        offset: Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER),
      });
      return sendJson(request, reply, toCachedBody(JSON.stringify(presentDeliveryList(list, page))));
    },
  );

  r.post(
    '/webhooks/:id/deliveries/:delivery_id/redeliver',
    {
      config: { access: 'enterprise' },
      schema: {
        operationId: 'redeliverWebhook',
        summary: 'Send one message again now',
        description:
          'Sends the message again now, whatever its status: the same event id (`webhook-id`) and the same ' +
          'body, signed with the current secret(s) and a new timestamp. Answers with the attempt, as `test` ' +
          'does (200 whatever the receiver said). A success settles a pending or failed message as ' +
          '`succeeded`; a failure leaves its status and schedule as they were. No body.',
        tags: TAGS,
        params: DeliveryParams,
        response: {
          200: WebhookAttemptResultA,
          ...errors({ 404: `${NOT_FOUND_404} Or the delivery is not one of this endpoint's.` }),
        },
      },
    },
    async (request) =>
      presentAttemptAnswer(
        await webhooks.redeliver(accountOf(request), request.params.id, request.params.delivery_id),
      ),
  );

  r.post(
    '/webhooks/:id/recover',
    {
      config: { access: 'enterprise' },
      bodyLimit: BODY_LIMIT,
      schema: {
        operationId: 'recoverWebhook',
        summary: 'Queue failed messages again',
        description:
          'Every `failed` message of this endpoint created at or after `since` becomes `pending` again, due at ' +
          'once, and goes through the whole retry schedule again. For after an outage of your receiver: ' +
          'enable the endpoint (PATCH) if it was disabled, then recover.',
        tags: TAGS,
        params: EndpointParams,
        body: RecoverBody,
        response: { 200: WebhookRecoverResultA, ...errors({ 404: NOT_FOUND_404 }) },
      },
      preValidation: [jsonOnly, strictJsonBody()],
    },
    async (request) => webhooks.recover(accountOf(request), request.params.id, request.body.since),
  );
}
