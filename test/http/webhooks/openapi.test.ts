import type { TSchema } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountEventListA,
  CreateWebhookBody,
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
} from '../../../src/http/variant-a/webhook-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { expectValidOpenApi31 } from '../../support/openapi.ts';
import { type Setup, setup } from './helpers.ts';

/** Every webhook operation: its success status, the component of its answer, and its request body. */
const OPERATIONS: {
  path: string;
  method: string;
  operationId: string;
  status: string;
  answer: [string, TSchema] | null;
  body?: TSchema;
  bodyRequired?: boolean;
  notFound: boolean;
}[] = [
  {
    path: '/webhooks',
    method: 'post',
    operationId: 'createWebhook',
    status: '201',
    answer: ['WebhookEndpointCreatedA', WebhookEndpointCreatedA],
    body: CreateWebhookBody,
    notFound: false,
  },
  {
    path: '/webhooks',
    method: 'get',
    operationId: 'listWebhooks',
    status: '200',
    answer: ['WebhookEndpointListA', WebhookEndpointListA],
    notFound: false,
  },
  {
    path: '/webhooks/{id}',
    method: 'get',
    operationId: 'getWebhook',
    status: '200',
    answer: ['WebhookEndpointA', WebhookEndpointA],
    notFound: true,
  },
  {
    path: '/webhooks/{id}',
    method: 'patch',
    operationId: 'updateWebhook',
    status: '200',
    answer: ['WebhookEndpointA', WebhookEndpointA],
    body: UpdateWebhookBody,
    notFound: true,
  },
  {
    path: '/webhooks/{id}',
    method: 'delete',
    operationId: 'deleteWebhook',
    status: '204',
    answer: null,
    notFound: true,
  },
  {
    path: '/webhooks/{id}/rotate_secret',
    method: 'post',
    operationId: 'rotateWebhookSecret',
    status: '200',
    answer: ['WebhookSecretA', WebhookSecretA],
    body: RotateSecretBody,
    bodyRequired: false,
    notFound: true,
  },
  {
    path: '/webhooks/{id}/test',
    method: 'post',
    operationId: 'testWebhook',
    status: '200',
    answer: ['WebhookAttemptResultA', WebhookAttemptResultA],
    notFound: true,
  },
  {
    path: '/webhooks/{id}/deliveries',
    method: 'get',
    operationId: 'listWebhookDeliveries',
    status: '200',
    answer: ['WebhookDeliveryListA', WebhookDeliveryListA],
    notFound: true,
  },
  {
    path: '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    method: 'post',
    operationId: 'redeliverWebhook',
    status: '200',
    answer: ['WebhookAttemptResultA', WebhookAttemptResultA],
    notFound: true,
  },
  {
    path: '/webhooks/{id}/recover',
    method: 'post',
    operationId: 'recoverWebhook',
    status: '200',
    answer: ['WebhookRecoverResultA', WebhookRecoverResultA],
    body: RecoverBody,
    notFound: true,
  },
  {
    path: '/events',
    method: 'get',
    operationId: 'listEvents',
    status: '200',
    answer: ['AccountEventListA', AccountEventListA],
    notFound: false,
  },
];

/** The JSON form of a TypeBox schema, as the document carries it (no $id). */
const asJson = (schema: TSchema) => {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema));
  return rest;
};

describe.each(DIALECTS)('webhooks in the Variant A OpenAPI document (%s)', (dialect) => {
  let s: Setup;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
  let doc: any;
  beforeAll(async () => {
    s = await setup(dialect);
    const res = await s.ctx.app.inject({ url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => s?.ctx.close());

  it('is still a valid OpenAPI 3.1 document', async () => {
    await expectValidOpenApi31(doc);
  });

  it.each(OPERATIONS)(
    '$method $path ($operationId): request and response schemas from the validating schemas',
    (op) => {
      const o = doc.paths[op.path]?.[op.method];
      expect(o, `${op.method} ${op.path}`).toBeDefined();
      expect(o.operationId).toBe(op.operationId);
      expect(o.tags).toEqual(['webhooks']);
      expect(o.summary).toEqual(expect.any(String));
      expect(o.description.length).toBeGreaterThan(40);
      const ok = o.responses[op.status];
      expect(ok, op.status).toBeDefined();
      if (op.answer) {
        const [component, schema] = op.answer;
        expect(ok.content['application/json'].schema).toEqual({ $ref: `#/components/schemas/${component}` });
        expect(doc.components.schemas[component]).toEqual(asJson(schema));
      } else {
        expect(ok.content).toBeUndefined();
      }
      // After the key: the rate-limit headers; errors in the documented body.
      expect(Object.keys(ok.headers ?? {}).sort()).toEqual(
        expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
      );
      for (const status of ['400', '401', '403', '429']) {
        expect(o.responses[status]?.content['application/json'].schema.$ref, status).toBe(
          '#/components/schemas/ErrorBody',
        );
      }
      expect(o.responses['403'].description).toContain('Enterprise');
      expect(Boolean(o.responses['404']), '404').toBe(op.notFound);
      if (op.body) {
        expect(o.requestBody.required).toBe(op.bodyRequired ?? true);
        expect(o.requestBody.content['application/json'].schema).toEqual(asJson(op.body));
        expect(o.responses['413']).toBeDefined();
        expect(o.responses['415']).toBeDefined();
      } else {
        expect(o.requestBody).toBeUndefined();
      }
      if (op.method === 'get') {
        expect(o.responses['304']).toBeDefined();
        expect(o.parameters.map((p: { name: string }) => p.name)).toContain('If-None-Match');
      }
    },
  );

  it('documents the id patterns, the paging and the filters', () => {
    const params = (path: string, method: string) =>
      Object.fromEntries(
        (
          doc.paths[path][method].parameters as {
            name: string;
            in: string;
            schema: Record<string, unknown>;
          }[]
        )
          .filter((p) => p.in !== 'header')
          .map((p) => [p.name, p.schema]),
      );
    expect(params('/webhooks/{id}', 'get').id).toMatchObject({ pattern: '^ep_[0-9a-f]{24}$' });
    expect(params('/webhooks/{id}/deliveries/{delivery_id}/redeliver', 'post')).toMatchObject({
      id: { pattern: '^ep_[0-9a-f]{24}$' },
      delivery_id: { pattern: '^dlv_[0-9a-f]{24}$' },
    });
    const deliveries = params('/webhooks/{id}/deliveries', 'get');
    expect(Object.keys(deliveries).sort()).toEqual(['event_type', 'id', 'page', 'per_page', 'status']);
    expect(deliveries.status).toMatchObject({ enum: ['pending', 'succeeded', 'failed'] });
    expect(deliveries.per_page).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    const events = params('/events', 'get');
    expect(Object.keys(events).sort()).toEqual(['delivery_success', 'page', 'per_page', 'type', 'vendor']);
    expect(events.delivery_success).toMatchObject({ enum: ['true', 'false'] });
    const create = doc.paths['/webhooks'].post.requestBody.content['application/json'].schema;
    expect(create.required.sort()).toEqual(['events', 'url']);
    expect(create.additionalProperties).toBe(false);
    expect(create.properties.events.items.enum).toContain('*');
  });

  it('every operation of the document is one the service answers (no stale paths)', () => {
    const webhookPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/webhooks') || p === '/events');
    const documented = webhookPaths.flatMap((p) => Object.keys(doc.paths[p]).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(OPERATIONS.map((o) => `${o.method} ${o.path}`).sort());
  });
});
