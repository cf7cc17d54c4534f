import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidOpenApi31 } from '../../support/openapi.ts';
import '../../../src/core/validation/formats.ts';
import * as S from '../../../src/http/admin/schemas.ts';
import * as U from '../../../src/http/admin/user-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { type AdminFixture, OWNER, setupAdmin } from './helpers.ts';

/** Every path of the operator API and its operations. */
const PATHS: Record<string, string[]> = {
  '/import': ['post'],
  '/accounts': ['get', 'post'],
  '/accounts/{name}': ['patch'],
  '/accounts/{name}/keys': ['get', 'post'],
  '/keys/revoke': ['post'],
  '/vendors/{slug}': ['get', 'patch'],
  '/vendors/{slug}/claim': ['put'],
  '/vendors/{slug}/listings': ['post'],
  '/overrides': ['get'],
  '/vendors/{slug}/overrides/{field}': ['put', 'delete'],
  '/reviews': ['post'],
  '/reviews/{id}/reply': ['post'],
  '/batches/pending': ['get'],
  '/vendors/{slug}/batches/{batchId}/approve': ['post'],
  '/vendors/{slug}/batches/{batchId}/reject': ['post'],
  '/scores/recompute': ['post'],
  '/events': ['get'],
  '/users': ['get', 'post'],
  '/users/{email}/reset': ['post'],
  '/users/{email}/disable': ['post'],
};

/** The success response of each operation: status and the exported schema. */
const SUCCESS: Record<string, [string, TSchema]> = {
  listAccounts: ['200', S.AdminAccountList],
  createAccount: ['201', S.AdminAccountCreated],
  updateAccount: ['200', S.AdminAccount],
  listKeys: ['200', S.AdminKeyList],
  createKey: ['201', S.AdminKeyCreated],
  revokeKey: ['200', S.AdminKey],
  getVendor: ['200', S.AdminVendor],
  updateVendor: ['200', S.AdminVendorWrite],
  claimVendor: ['200', S.AdminVendorWrite],
  putListings: ['200', S.AdminListingsResult],
  listOverrides: ['200', S.AdminOverrideList],
  setOverride: ['200', S.AdminOverrideSet],
  clearOverride: ['200', S.AdminOverrideCleared],
  addReview: ['201', S.AdminReviewCreated],
  replyToReview: ['201', S.AdminReplyCreated],
  listPendingBatches: ['200', S.AdminPendingBatches],
  approveBatch: ['200', S.AdminBatchWrite],
  rejectBatch: ['200', S.AdminBatchWrite],
  recomputeScores: ['200', S.AdminRecomputeResult],
  listEvents: ['200', S.AdminEventList],
  listUsers: ['200', U.AdminUserList],
  inviteUser: ['201', U.AdminUserLink],
  resetUser: ['200', U.AdminUserLink],
  disableUser: ['200', U.AdminUser],
};

const asJson = (schema: TSchema) => {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema));
  return rest;
};

interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  parameters: { name: string; in: string; required: boolean }[];
  responses: Record<string, { content: Record<string, { schema: { $ref?: string } }> }>;
  requestBody?: { content: Record<string, { schema: { additionalProperties?: boolean; type?: string } }> };
}

describe.each(DIALECTS)('operator API OpenAPI document (%s)', (dialect) => {
  let f: AdminFixture;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown> };
  };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );

  beforeAll(async () => {
    f = await setupAdmin(dialect);
    const res = await f.ctx.app.inject({ url: '/admin/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => f?.ctx.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    await expectValidOpenApi31(doc);
  });

  it('lists every operator route, and only those', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(PATHS).sort());
    for (const [path, methods] of Object.entries(PATHS))
      expect(Object.keys(doc.paths[path]!).sort()).toEqual(methods.sort());
  });

  it('every operation has a unique id, a summary, a tag and the documented error body for 400 and 401', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { op } of operations()) {
      expect(op.summary).toBeTruthy();
      expect(op.tags?.length).toBeGreaterThan(0);
      for (const status of ['400', '401']) {
        const schema = op.responses[status]?.content['application/json']?.schema as {
          $ref?: string;
          anyOf?: { $ref?: string; properties?: { error: { required: string[] } } }[];
        };
        if (op.operationId === 'importData' && status === '400') {
          // The import's 400 lists the bad lines (the error body with two more fields), or is the
          // common error body when the request is refused before its lines are read.
          const [lines, common] = schema.anyOf ?? [];
          expect(common?.$ref).toBe('#/components/schemas/ErrorBody');
          expect(lines?.properties?.error.required).toEqual(expect.arrayContaining(['error_count', 'lines']));
          continue;
        }
        expect(schema?.$ref).toBe('#/components/schemas/ErrorBody');
      }
    }
  });

  it('each success response is the component built from the exported schema', () => {
    for (const { op } of operations()) {
      if (op.operationId === 'importData') continue;
      const [status, schema] = SUCCESS[op.operationId]!;
      const id = (schema as { $id: string }).$id;
      expect(Object.keys(op.responses).filter((s) => s.startsWith('2'))).toEqual([status]);
      expect(op.responses[status]!.content['application/json']!.schema).toEqual({
        $ref: `#/components/schemas/${id}`,
      });
      expect(doc.components.schemas[id]).toEqual(asJson(schema));
    }
    expect(Object.keys(SUCCESS).sort()).toEqual(
      operations()
        .map(({ op }) => op.operationId)
        .filter((id) => id !== 'importData')
        .sort(),
    );
  });

  it('every write documents the optional X-Operator header; JSON bodies refuse unknown fields', () => {
    for (const { method, op } of operations()) {
      if (method === 'get' || op.operationId === 'importData') continue;
      expect(op.parameters).toContainEqual(
        expect.objectContaining({ name: 'x-operator', in: 'header', required: false }),
      );
      const json = op.requestBody?.content['application/json']?.schema;
      if (json) expect(json).toMatchObject({ type: 'object', additionalProperties: false });
    }
    expect(doc.paths['/vendors/{slug}/batches/{batchId}/approve']!.post!.parameters).toContainEqual(
      expect.objectContaining({ name: 'batchId', in: 'path', required: true }),
    );
  });

  it('a rejection and a clear show their optional reason (body, and the query for a clear)', () => {
    const reject = doc.paths['/vendors/{slug}/batches/{batchId}/reject']!.post!;
    const clear = doc.paths['/vendors/{slug}/overrides/{field}']!.delete!;
    for (const op of [reject, clear]) {
      const body = op.requestBody as unknown as {
        required: boolean;
        content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }>;
      };
      expect(body.required).toBe(false);
      const schema = body.content['application/json']!.schema;
      expect(schema.properties.reason).toMatchObject({ type: 'string', minLength: 1, maxLength: 500 });
      expect(schema.required ?? []).not.toContain('reason');
    }
    expect(clear.parameters).toContainEqual(
      expect.objectContaining({ name: 'reason', in: 'query', required: false }),
    );
  });

  it('real responses validate against their schemas, and the schemas can fail', async () => {
    const check = (schema: TSchema, body: unknown) =>
      expect([...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    const ok = async (
      schema: TSchema,
      method: Parameters<AdminFixture['call']>[0],
      url: string,
      body?: unknown,
    ) => {
      const res = await f.call(method, url, body);
      expect(res.statusCode, res.body).toBeLessThan(300);
      check(schema, res.json());
      return res.json();
    };
    await ok(S.AdminAccountList, 'GET', '/accounts');
    await ok(S.AdminAccountCreated, 'POST', '/accounts', { name: 'Doc Co', plan: 'custom', rateLimitA: 10 });
    await ok(S.AdminAccount, 'PATCH', '/accounts/Doc%20Co', { plan: 'pro' });
    const key = await ok(S.AdminKeyCreated, 'POST', '/accounts/Doc%20Co/keys', { name: 'k' });
    await ok(S.AdminKeyList, 'GET', '/accounts/Doc%20Co/keys');
    await ok(S.AdminKey, 'POST', '/keys/revoke', { key: key.id });
    for (const slug of ['apex', 'borealis', 'bare']) await ok(S.AdminVendor, 'GET', `/vendors/${slug}`);
    await ok(S.AdminVendorWrite, 'PATCH', '/vendors/bare', { verified: true });
    await ok(S.AdminVendorWrite, 'PUT', '/vendors/bare/claim', { account: OWNER });
    await ok(S.AdminListingsResult, 'POST', '/vendors/bare/listings', {
      rows: [{ peptideSlug: 'bpc-157', vialMg: 2.5, totalUsd: 19.99, inStock: true }],
    });
    await ok(S.AdminOverrideSet, 'PUT', '/vendors/apex/overrides/purity', { value: 10, reason: 'doc' });
    await ok(S.AdminOverrideList, 'GET', '/overrides');
    await ok(S.AdminOverrideCleared, 'DELETE', '/vendors/apex/overrides/purity');
    const review = await ok(S.AdminReviewCreated, 'POST', '/reviews', {
      vendorSlug: 'bare',
      rating: 5,
      title: 't',
      body: 'b',
      author: 'a',
    });
    await ok(S.AdminReplyCreated, 'POST', `/reviews/${review.id}/reply`, { body: 'thanks', account: OWNER });
    await ok(S.AdminPendingBatches, 'GET', '/batches/pending');
    await ok(S.AdminBatchWrite, 'POST', '/vendors/apex/batches/TB-2/approve', {});
    await ok(S.AdminBatchWrite, 'POST', '/vendors/borealis/batches/PEND-7/reject');
    await ok(S.AdminRecomputeResult, 'POST', '/scores/recompute');
    await ok(U.AdminUserLink, 'POST', '/users', { email: 'doc@doc.test', account: 'Doc Co', role: 'owner' });
    await ok(U.AdminUserList, 'GET', '/users');
    await ok(U.AdminUserLink, 'POST', '/users/doc@doc.test/reset');
    await ok(U.AdminUser, 'POST', '/users/doc@doc.test/disable');
    const events = await ok(S.AdminEventList, 'GET', '/events');
    expect(events.data.length).toBeGreaterThan(0);

    const vendor = (await f.call('GET', '/vendors/apex')).json();
    delete vendor.history;
    expect(Value.Check(S.AdminVendor, vendor)).toBe(false);
    events.data[0].createdAt = 'yesterday';
    expect(Value.Check(S.AdminEventList, events)).toBe(false);
  });
});
