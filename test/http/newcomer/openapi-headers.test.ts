import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuth, setupAdmin } from '../admin/helpers.ts';

type Admin = Awaited<ReturnType<typeof setupAdmin>>;
type Doc = {
  info: { description: string };
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { headers?: Record<string, unknown> }>; requestBody?: unknown }
    >
  >;
  components: { headers?: Record<string, unknown> };
};

/** The published documents say what the service really answers: 304s, headers, and body errors. */
describe('OpenAPI documents: 304, response headers, body statuses (sqlite)', () => {
  let a: Admin;
  const docs: Record<string, Doc> = {};
  beforeAll(async () => {
    a = await setupAdmin('sqlite');
    for (const prefix of ['/v1', '/api/v1', '/admin/v1']) {
      const res = await a.ctx.app.inject({ url: `${prefix}/openapi.json`, headers: adminAuth });
      docs[prefix] = res.json() as Doc;
    }
  });
  afterAll(async () => a?.ctx.close());

  it.each(['/v1', '/api/v1'])(
    '%s: every GET documents 304 with ETag and the rate-limit headers',
    (prefix) => {
      const doc = docs[prefix]!;
      expect(Object.keys(doc.components.headers ?? {}).sort()).toEqual(
        ['ETag', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].sort(),
      );
      for (const [path, ops] of Object.entries(doc.paths)) {
        // The CoA upload is a POST: not conditional, but rate-limited like any request.
        if (!ops.get) {
          expect(Object.keys(ops.post!.responses['200']!.headers ?? {}).sort(), path).toEqual(
            ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].sort(),
          );
          continue;
        }
        const r = ops.get.responses;
        expect(r['304'], path).toBeDefined();
        for (const status of ['200', '304']) {
          expect(Object.keys(r[status]!.headers ?? {}).sort(), `${path} ${status}`).toEqual(
            ['ETag', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].sort(),
          );
        }
        expect(Object.keys(r['429']!.headers ?? {}), path).toContain('Retry-After');
        expect(r['401']!.headers, path).toBeUndefined();
      }
    },
  );

  it('the headers the documents promise are the ones sent, and a 401 has none', async () => {
    const ok = await a.ctx.app.inject({ url: '/v1/vendors', headers: { authorization: `Bearer ${a.key}` } });
    for (const h of ['etag', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(ok.headers[h], h).toBeDefined();
    const refused = await a.ctx.app.inject({ url: '/v1/vendors' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-ratelimit-limit']).toBeUndefined();
    expect(docs['/v1']!.info.description).not.toContain('on every response');
    expect(docs['/v1']!.info.description).toContain('a 401');
  });

  it('operator API: no 403 or 429 anywhere; every operation with a body documents 413 and 415', () => {
    const doc = docs['/admin/v1']!;
    let bodies = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const statuses = Object.keys(op.responses);
        expect(statuses, `${method} ${path}`).not.toContain('403');
        expect(statuses, `${method} ${path}`).not.toContain('429');
        if (op.requestBody) {
          bodies++;
          expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(['413', '415']));
        }
      }
    }
    expect(bodies).toBeGreaterThan(5);
    expect(JSON.stringify(doc.paths['/import']!.post!.responses['415'])).toContain('application/x-ndjson');
  });

  it('slug parameters say slugs are lower case', () => {
    const op = docs['/v1']!.paths['/peptides/{slug}/vendors']!.get as unknown as {
      parameters: { name: string; description: string; schema: { minLength: number } }[];
    };
    const slug = op.parameters.find((p) => p.name === 'slug')!;
    expect(slug.description).toContain('lower case');
    expect(slug.schema.minLength).toBe(1);
  });
});
