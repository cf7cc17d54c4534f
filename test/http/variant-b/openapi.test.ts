import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidOpenApi31 } from '../../support/openapi.ts';
import '../../../src/core/validation/formats.ts';
import { ErrorBodySchema } from '../../../src/http/shared-schemas.ts';
import {
  BatchLookupB,
  PriceHistoryB,
  PriceStatsB,
  PriceTableB,
  VendorDetailB,
  VendorListB,
} from '../../../src/http/variant-b/schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { B, type Fixture, setupFixture } from './fixtures.ts';

const PATHS: Record<string, { component: string; schema: TSchema; urls: string[] }> = {
  '/vendors': {
    component: 'VendorListB',
    schema: VendorListB,
    urls: ['/vendors', '/vendors?limit=1', '/vendors?offset=99'],
  },
  '/vendors/{slug}': {
    component: 'VendorDetailB',
    schema: VendorDetailB,
    urls: ['/vendors/apex', '/vendors/borealis', '/vendors/zeta', '/vendors/unscored', '/vendors/bare'],
  },
  '/peptides/{slug}/prices': {
    component: 'PriceTableB',
    schema: PriceTableB,
    urls: ['/peptides/bpc-157/prices', '/peptides/tb-500/prices'],
  },
  '/peptides/{slug}/price-stats': {
    component: 'PriceStatsB',
    schema: PriceStatsB,
    urls: ['/peptides/bpc-157/price-stats', '/peptides/tb-500/price-stats'],
  },
  '/peptides/{slug}/price-history': {
    component: 'PriceHistoryB',
    schema: PriceHistoryB,
    urls: ['/peptides/bpc-157/price-history', '/peptides/tb-500/price-history?days=3'],
  },
  '/batches/{batchId}': {
    component: 'BatchLookupB',
    schema: BatchLookupB,
    urls: [
      '/batches/BPC-001',
      '/batches/OLD-151',
      '/batches/PEND-7',
      '/batches/NOPE',
      '/batches/LOT%2F2026%23A%3F1',
    ],
  },
};

/** The JSON form of a TypeBox schema, as the document carries it (no $id). */
const asJson = (schema: TSchema) => {
  const { $id: _id, ...rest } = JSON.parse(JSON.stringify(schema));
  return rest;
};

describe.each(DIALECTS)('OpenAPI document (%s)', (dialect) => {
  let f: Fixture;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document
  let doc: any;
  beforeAll(async () => {
    f = await setupFixture(dialect);
    const res = await f.ctx.app.inject({ url: `${B}/openapi.json` });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => f?.ctx.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    await expectValidOpenApi31(doc);
  });

  it('lists exactly the six Variant B paths, each a GET with a bearer scheme', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(PATHS).sort());
    for (const p of Object.keys(PATHS)) expect(Object.keys(doc.paths[p])).toEqual(['get']);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.servers[0].url).toMatch(/\/api\/v1$/);
  });

  it('declares for each 200 the component built from the exported schema, and error bodies for 401/429', () => {
    for (const [p, { component, schema }] of Object.entries(PATHS)) {
      const responses = doc.paths[p].get.responses;
      expect(responses['200'].content['application/json'].schema).toEqual({
        $ref: `#/components/schemas/${component}`,
      });
      expect(doc.components.schemas[component]).toEqual(asJson(schema));
      for (const status of ['401', '429']) {
        expect(responses[status].content['application/json'].schema.$ref).toBe(
          '#/components/schemas/ErrorBody',
        );
      }
    }
    expect(doc.components.schemas.ErrorBody).toEqual(asJson(ErrorBodySchema));
  });

  it('documents 404 for the slug routes', () => {
    expect(doc.paths['/vendors/{slug}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/peptides/{slug}/prices'].get.responses['404']).toBeDefined();
  });

  for (const [p, { schema, urls }] of Object.entries(PATHS)) {
    it.each(urls)(`the 200 body of %s validates against the schema of ${p}`, async (url) => {
      const res = await f.get(`${B}${url}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect([...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      expect(Value.Check(schema, body)).toBe(true);
    });
  }

  it('the schemas can fail: a body missing a field or with a bad timestamp does not validate', async () => {
    const list = (await f.get(`${B}/vendors`)).json();
    delete list.data.total;
    expect(Value.Check(VendorListB, list)).toBe(false);
    const batch = (await f.get(`${B}/batches/BPC-001`)).json();
    batch.data.testedAt = 'yesterday';
    expect(Value.Check(BatchLookupB, batch)).toBe(false);
  });

  it('error bodies validate against ErrorBody', async () => {
    for (const res of [
      await f.ctx.app.inject({ url: `${B}/vendors` }),
      await f.get(`${B}/vendors/nope`),
      await f.get(`${B}/vendors?limit=x`),
    ]) {
      expect(Value.Check(ErrorBodySchema, res.json())).toBe(true);
    }
  });

  it('GET /docs serves the HTML reference', async () => {
    const res = await f.ctx.app.inject({ url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/^<!doctype html>/i);
    const init = await f.ctx.app.inject({ url: '/docs/init.js' });
    expect(init.body).toContain(`${B}/openapi.json`);
  });
});
