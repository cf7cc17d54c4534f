import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { createContainer } from '../../../src/container.ts';
import { buildApp } from '../../../src/http/app.ts';
import { bearer } from '../../support/context.ts';
import { createTestDatabase, DIALECTS } from '../../support/databases.ts';
import { ADMIN, type AdminFixture, adminAuth, expectError, setupAdmin } from './helpers.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every operator route with a body that would succeed, so only the token decides. */
const ROUTES: [Method, string, unknown?][] = [
  ['GET', '/accounts'],
  ['POST', '/accounts', { name: 'New Co', plan: 'pro' }],
  ['PATCH', '/accounts/Owner%20One', { plan: 'enterprise' }],
  ['GET', '/accounts/Owner%20One/keys'],
  ['POST', '/accounts/Owner%20One/keys', {}],
  ['POST', '/keys/revoke', { key: 'key_nope' }],
  ['GET', '/vendors/apex'],
  ['PATCH', '/vendors/apex', { pending: true }],
  ['PUT', '/vendors/apex/claim', { account: null }],
  [
    'POST',
    '/vendors/apex/listings',
    { rows: [{ peptideSlug: 'bpc-157', vialMg: 5, totalUsd: 1, inStock: true }] },
  ],
  ['GET', '/overrides'],
  ['PUT', '/vendors/apex/overrides/coa', { value: 50, reason: 'x' }],
  ['DELETE', '/vendors/apex/overrides/coa'],
  ['POST', '/reviews', { vendorSlug: 'apex', rating: 4, title: 't', body: 'b', author: 'a' }],
  ['POST', '/reviews/rev-apex-1/reply', { body: 'Thanks', account: 'Owner One' }],
  ['GET', '/batches/pending'],
  ['POST', '/vendors/apex/batches/TB-2/approve', {}],
  ['POST', '/vendors/borealis/batches/PEND-7/reject'],
  ['POST', '/scores/recompute'],
  ['GET', '/events'],
];

const inject = (
  f: AdminFixture,
  method: Method,
  url: string,
  body: unknown,
  headers: Record<string, string>,
) =>
  f.ctx.app.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

describe.each(DIALECTS)('operator API access (%s)', (dialect) => {
  let f: AdminFixture;
  beforeAll(async () => {
    f = await setupAdmin(dialect);
  });
  afterAll(async () => f?.ctx.close());

  it.each(ROUTES)(
    '%s %s needs the admin token: none, a wrong one and an API key are 401',
    async (method, url, body) => {
      const version = f.dataVersion();
      const events = (await f.events()).length;
      for (const headers of [
        {},
        { authorization: 'Bearer wrong' },
        { authorization: `${adminAuth.authorization}x` },
        bearer(f.key),
      ]) {
        const res = await inject(f, method, url, body, headers);
        expect(expectError(res, 401, 'invalid_api_key')).toBe('The admin token is not valid.');
      }
      // A refused request wrote nothing.
      expect(f.dataVersion()).toBe(version);
      expect(await f.events()).toHaveLength(events);
    },
  );

  it("the operator OpenAPI document is public (the /docs page loads it), like the variants' documents", async () => {
    const res = await f.ctx.app.inject({ url: `${ADMIN}/openapi.json` });
    expect(res.statusCode).toBe(200);
    expect(res.json().security).toEqual([{ admin: [] }]);
  });

  it('an unknown route under the prefix is 404 with the documented body', async () => {
    expectError(await f.call('GET', '/nope'), 404, 'not_found');
    expectError(await f.call('DELETE', '/accounts'), 404, 'not_found');
  });

  it('X-Operator: 1..254 printable characters (an email fits), else 400 naming it', async () => {
    for (const bad of ['x'.repeat(255), 'tab\there', 'é']) {
      const res = await f.call('PATCH', '/vendors/apex', { pending: false }, { 'x-operator': bad });
      expect(expectError(res, 400, 'invalid_parameter')).toContain("'x-operator'");
    }
    const ok = await f.call(
      'PATCH',
      '/vendors/apex',
      { pending: false },
      { 'x-operator': 'Ann O. <ops@example.com>' },
    );
    expect(ok.statusCode).toBe(200);
    // The longest address a console operator can have is kept whole as who set an override.
    const email = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(63)}.com`;
    expect(email).toHaveLength(254);
    const set = await f.call(
      'PUT',
      '/vendors/bare/overrides/score',
      { value: 40, reason: 'long actor' },
      { 'x-operator': email },
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().override.setBy).toBe(email);
  });

  it('a JSON route refuses a body that is not a JSON object', async () => {
    const res = await f.ctx.app.inject({
      method: 'PATCH',
      url: `${ADMIN}/vendors/apex`,
      headers: { ...adminAuth, 'content-type': 'application/json' },
      payload: '{"pending":',
    });
    expectError(res, 400, 'invalid_parameter');
    const text = await f.ctx.app.inject({
      method: 'PATCH',
      url: `${ADMIN}/vendors/apex`,
      headers: { ...adminAuth, 'content-type': 'text/plain' },
      payload: 'pending',
    });
    expectError(text, 400, 'invalid_parameter');
  });
});

describe('operator API switched off', () => {
  it('every operator route is 404 when PURERANK_ADMIN_TOKEN is unset', async () => {
    const db = await createTestDatabase('sqlite');
    const container = await createContainer(
      loadConfig({ DATABASE_URL: db.url, PURERANK_SEED_DEMO: 'false' }),
    );
    const app = await buildApp(container);
    try {
      for (const [method, url, body] of [...ROUTES, ['GET', '/openapi.json'] as [Method, string]]) {
        const res = await app.inject({
          method,
          url: `${ADMIN}${url}`,
          headers: body === undefined ? adminAuth : { ...adminAuth, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      }
    } finally {
      await app.close();
      await container.close();
      await db.drop();
    }
  });
});
