import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidOpenApi31 } from '../../support/openapi.ts';
import '../../../src/core/validation/formats.ts';
import { ErrorBodySchema } from '../../../src/http/shared-schemas.ts';
import {
  PeptideListA,
  PeptideRankingA,
  SearchResultA,
  VendorDetailA,
  VendorListA,
} from '../../../src/http/variant-a/schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { A, ALL_VENDOR_SLUGS, type Fixture, PEPTIDE_RANKINGS, setupFixture } from './fixtures.ts';

const PATHS: Record<string, { component: string; schema: TSchema; urls: string[] }> = {
  '/vendors': {
    component: 'VendorListA',
    schema: VendorListA,
    urls: ['/vendors', '/vendors?per_page=1', '/vendors?page=99', '/vendors?page=2&per_page=4'],
  },
  '/vendors/{slug}': {
    component: 'VendorDetailA',
    schema: VendorDetailA,
    urls: ALL_VENDOR_SLUGS.map((s) => `/vendors/${s}`),
  },
  '/peptides': {
    component: 'PeptideListA',
    schema: PeptideListA,
    urls: ['/peptides', '/peptides?category=healing', '/peptides?category=nope'],
  },
  '/peptides/{slug}/vendors': {
    component: 'PeptideRankingA',
    schema: PeptideRankingA,
    urls: Object.keys(PEPTIDE_RANKINGS).map((s) => `/peptides/${s}/vendors`),
  },
  '/search': {
    component: 'SearchResultA',
    schema: SearchResultA,
    urls: [
      '/search?q=bpc157',
      '/search?q=nova',
      '/search?q=borealis&limit=50',
      '/search?q=zzzz',
      '/search?q=healing',
    ],
  },
};

/** The JSON form of a TypeBox schema, as the document carries it (no $id). */
const asJson = (schema: TSchema) => {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema));
  return rest;
};

describe.each(DIALECTS)('Variant A OpenAPI document (%s)', (dialect) => {
  let f: Fixture;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
  let doc: any;
  beforeAll(async () => {
    f = await setupFixture(dialect);
    const res = await f.ctx.app.inject({ url: `${A}/openapi.json` });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => f?.ctx.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    await expectValidOpenApi31(doc);
  });

  it('lists the five read paths (GET), the two CoA paths and the webhook paths, under a bearer scheme, served under /v1', () => {
    // The webhook operations are checked one by one in test/http/webhooks/openapi.test.ts.
    const webhooks = Object.keys(doc.paths).filter((p) => p.startsWith('/webhooks') || p === '/events');
    expect(webhooks.length).toBe(8);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [...Object.keys(PATHS), '/coa/verify', '/coa/verifications/{id}', ...webhooks].sort(),
    );
    for (const p of Object.keys(PATHS)) expect(Object.keys(doc.paths[p])).toEqual(['get']);
    expect(Object.keys(doc.paths['/coa/verify'])).toEqual(['post']);
    expect(Object.keys(doc.paths['/coa/verifications/{id}'])).toEqual(['get']);
    // The upload is documented as the multipart form the route reads.
    const form = doc.paths['/coa/verify'].post.requestBody.content['multipart/form-data'].schema;
    expect(form.required.sort()).toEqual(['file', 'peptide']);
    expect(form.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    for (const status of ['200', '400', '401', '403', '413', '415', '429', '503']) {
      expect(doc.paths['/coa/verify'].post.responses[status], status).toBeDefined();
    }
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.servers[0].url).toMatch(/\/v1$/);
    expect(doc.servers[0].url).not.toMatch(/\/api\/v1$/);
  });

  it('declares for each 200 the component built from the exported schema, and error bodies for 401/403/429', () => {
    for (const [p, { component, schema }] of Object.entries(PATHS)) {
      const responses = doc.paths[p].get.responses;
      expect(responses['200'].content['application/json'].schema).toEqual({
        $ref: `#/components/schemas/${component}`,
      });
      expect(doc.components.schemas[component]).toEqual(asJson(schema));
      for (const status of ['401', '403', '429']) {
        expect(responses[status]?.content['application/json'].schema.$ref, `${p} ${status}`).toBe(
          '#/components/schemas/ErrorBody',
        );
      }
    }
  });

  it('documents 404 for the slug routes and 400 for the parameterised ones', () => {
    expect(doc.paths['/vendors/{slug}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/peptides/{slug}/vendors'].get.responses['404']).toBeDefined();
    for (const p of ['/vendors', '/peptides', '/search'])
      expect(doc.paths[p].get.responses['400']).toBeDefined();
  });

  it('documents the query parameters: page, per_page; category; q (required), limit', () => {
    const params = (p: string) =>
      Object.fromEntries(
        (doc.paths[p].get.parameters as { name: string; in: string; required?: boolean }[])
          .filter((x) => x.in === 'query')
          .map((x) => [x.name, x.required ?? false]),
      );
    expect(params('/vendors')).toEqual({ page: false, per_page: false });
    expect(params('/peptides')).toEqual({ category: false });
    expect(params('/search')).toEqual({ q: true, limit: false });
  });

  for (const [p, { schema, urls }] of Object.entries(PATHS)) {
    it.each(urls)(`the 200 body of %s validates against the schema of ${p}`, async (url) => {
      const res = await f.get(`${A}${url}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect([...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      expect(Value.Check(schema, body)).toBe(true);
    });
  }

  it('the schemas can fail: a missing field, a bad tier, a bad purity text, a bad timestamp', async () => {
    const list = (await f.get(`${A}/vendors`)).json();
    expect(Value.Check(VendorListA, list)).toBe(true);
    expect(Value.Check(VendorListA, { ...list, page: undefined })).toBe(false);
    expect(Value.Check(VendorListA, { ...list, data: [{ ...list.data[0], tier: 'diamond' }] })).toBe(false);
    expect(Value.Check(VendorListA, { ...list, data: [{ ...list.data[0], purity: '99.15%' }] })).toBe(false);
    const detail = (await f.get(`${A}/vendors/apex`)).json();
    expect(Value.Check(VendorDetailA, detail)).toBe(true);
    detail.recent_coas[0].tested_at = 'yesterday';
    expect(Value.Check(VendorDetailA, detail)).toBe(false);
  });

  it('error bodies validate against ErrorBody', async () => {
    for (const res of [
      await f.ctx.app.inject({ url: `${A}/vendors` }),
      await f.get(`${A}/vendors/nope`),
      await f.get(`${A}/vendors?page=0`),
      await f.get(`${A}/search?q=%20`),
      await f.get(`${A}/peptides/nope/vendors`),
    ]) {
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(Value.Check(ErrorBodySchema, res.json())).toBe(true);
    }
  });

  it('GET /docs serves the HTML reference, which loads both variants’ documents', async () => {
    const res = await f.ctx.app.inject({ url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/^<!doctype html>/i);
    expect(res.body).toContain('/docs/init.js');
    const init = await f.ctx.app.inject({ url: '/docs/init.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain('"/v1/openapi.json"');
    expect(init.body).toContain('"/api/v1/openapi.json"');
    // And both documents are served.
    expect((await f.ctx.app.inject({ url: '/api/v1/openapi.json' })).statusCode).toBe(200);
  });
});
