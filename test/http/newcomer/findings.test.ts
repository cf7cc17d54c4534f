import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import { ADMIN, adminAuth, setupAdmin } from '../admin/helpers.ts';
import { type Answer, openTransport, type Transport, type TransportKind } from '../shared/transport.ts';

type Admin = Awaited<ReturnType<typeof setupAdmin>>;

const errorOf = (res: { statusCode: number; body: string }, status: number, code: string): string => {
  expect(res.statusCode).toBe(status);
  const { error } = JSON.parse(res.body) as { error: Record<string, unknown> };
  expect(error).toMatchObject({ code, status });
  return String(error.message);
};

/** A valid request that fills the cache (so the fast path could answer its route), then the odd one. */
const UNKNOWN_PARAMS: [warm: string, odd: string, message: string][] = [
  [
    '/v1/vendors?per_page=3',
    '/v1/vendors?limit=3',
    "Parameter 'limit' is not recognised; this endpoint takes page and per_page.",
  ],
  [
    '/api/v1/vendors?limit=3',
    '/api/v1/vendors?per_page=3',
    "Parameter 'per_page' is not recognised; this endpoint takes limit and offset.",
  ],
  [
    '/v1/vendors/apex',
    '/v1/vendors/apex?x=1',
    "Parameter 'x' is not recognised; this endpoint takes no query parameters.",
  ],
  [
    '/v1/peptides',
    '/v1/peptides?page=2',
    "Parameter 'page' is not recognised; this endpoint takes category.",
  ],
  [
    '/v1/peptides/bpc-157/vendors',
    '/v1/peptides/bpc-157/vendors?limit=1',
    "Parameter 'limit' is not recognised",
  ],
  [
    '/v1/search?q=apex',
    '/v1/search?q=apex&page=2',
    "Parameter 'page' is not recognised; this endpoint takes q and limit.",
  ],
  ['/api/v1/vendors/apex', '/api/v1/vendors/apex?fields=slug', "Parameter 'fields' is not recognised"],
  [
    '/api/v1/peptides/bpc-157/prices',
    '/api/v1/peptides/bpc-157/prices?x=',
    "Parameter 'x' is not recognised",
  ],
  ['/api/v1/batches/BPC-001', '/api/v1/batches/BPC-001?vendorSlug=apex', 'this endpoint takes vendor.'],
];

describe.each(DIALECTS)('what a newcomer following the docs meets (%s)', (dialect) => {
  let a: Admin;
  const transports: Partial<Record<TransportKind, Transport>> = {};
  beforeAll(async () => {
    a = await setupAdmin(dialect);
    transports.inject = await openTransport('inject', a.ctx);
    transports.socket = await openTransport('socket', a.ctx);
  });
  afterAll(async () => a?.ctx.close());
  const auth = () => bearer(a.key);

  describe.each(['inject', 'socket'] as const)('over %s', (kind) => {
    const get = (url: string, headers: Record<string, string> = auth()): Promise<Answer> =>
      transports[kind]!.get(url, headers);

    it.each(UNKNOWN_PARAMS)('%s is fine, %s is a 400 naming the parameter', async (warm, odd, message) => {
      expect((await get(warm)).statusCode).toBe(200);
      // Twice: over a socket the second would be the fast path's, had it ignored the parameter.
      for (let i = 0; i < 2; i++) {
        const res = await get(odd);
        expect(errorOf(res, 400, 'invalid_parameter')).toContain(message);
        if (kind === 'socket') expect(res.fast).toBe(false);
      }
    });

    it('a repeated string parameter "must be given only once", like an integer one', async () => {
      const res = await get('/v1/search?q=north&q=aurora');
      expect(errorOf(res, 400, 'invalid_parameter')).toBe("Parameter 'q' must be given only once.");
      const res2 = await get('/api/v1/batches/BPC-001?vendor=apex&vendor=borealis');
      expect(errorOf(res2, 400, 'invalid_parameter')).toBe("Parameter 'vendor' must be given only once.");
    });

    it.each([
      ['/v1/vendor', 'No route GET /v1/vendor. Every route is listed at /docs.'],
      [
        '/api/v1/search?q=apex',
        'No route GET /api/v1/search. It exists in Variant A: GET /v1/search. Every route is listed at /docs.',
      ],
      [
        '/v1/peptides/bpc-157/prices',
        'No route GET /v1/peptides/bpc-157/prices. It exists in Variant B: GET /api/v1/peptides/bpc-157/prices.',
      ],
      ['/api/v1/peptides', 'No route GET /api/v1/peptides. It exists in Variant A: GET /v1/peptides.'],
    ])('unknown route %s says where to look', async (url, message) => {
      expect(errorOf(await get(url), 404, 'not_found')).toContain(message);
    });

    it('an empty slug is a 400 naming it, not a lookup of the vendor ""', async () => {
      for (const url of [
        '/v1/vendors/',
        '/api/v1/vendors/',
        '/v1/peptides//vendors',
        '/api/v1/peptides//prices',
      ]) {
        expect(errorOf(await get(url), 400, 'invalid_parameter')).toBe("Parameter 'slug' must not be empty.");
      }
    });

    it('an upper-case slug is told that slugs are lower-case', async () => {
      expect(errorOf(await get('/v1/peptides/BPC-157/vendors'), 404, 'not_found')).toBe(
        "Peptide 'BPC-157' does not exist. Slugs are lower-case: try 'bpc-157'.",
      );
      expect(errorOf(await get('/api/v1/vendors/Apex'), 404, 'not_found')).toContain("try 'apex'");
      // A lower-case unknown slug gets no hint.
      expect(errorOf(await get('/api/v1/vendors/nobody'), 404, 'not_found')).toBe(
        "Vendor 'nobody' does not exist.",
      );
      // Nor does text that is no slug once lower-cased (the hint would suggest "' or 1=1--").
      expect(errorOf(await get("/api/v1/vendors/'%20OR%201=1--"), 404, 'not_found')).toBe(
        "Vendor '' OR 1=1--' does not exist.",
      );
    });

    it('a 401 says when the Authorization header is missing, and where keys come from', async () => {
      const missing = errorOf(await get('/v1/vendors', {}), 401, 'invalid_api_key');
      expect(missing).toMatch(/^The API key is not valid: the request has no Authorization header\. Send /);
      expect(missing).toContain('purerank keys create');
      const wrong = errorOf(
        await get('/v1/vendors', bearer(`prk_live_${'x'.repeat(32)}`)),
        401,
        'invalid_api_key',
      );
      expect(wrong).toMatch(/^The API key is not valid\. Send /);
      expect(wrong).not.toContain('no Authorization header');
      expect(wrong).toContain('ask your account owner');
    });
  });

  it('a known path with the wrong method is a 404 naming the methods it takes', async () => {
    const res = await a.ctx.app.inject({ method: 'POST', url: '/v1/vendors', headers: auth() });
    expect(errorOf(res, 404, 'not_found')).toBe(
      'No route POST /v1/vendors. /v1/vendors takes GET only. Every route is listed at /docs.',
    );
  });

  it('a body without Content-Type: 415 naming application/json', async () => {
    const res = await a.ctx.app.inject({
      method: 'POST',
      url: `${ADMIN}/accounts`,
      headers: { ...adminAuth },
      payload: Buffer.from('{"name":"x","plan":"pro"}'),
    });
    expect(errorOf(res, 415, 'unsupported_media_type')).toBe(
      'The request has a body but no Content-Type header; this endpoint accepts application/json.',
    );
  });

  it('malformed JSON: "The request body is not valid JSON."', async () => {
    const res = await a.ctx.app.inject({
      method: 'POST',
      url: `${ADMIN}/accounts`,
      headers: { ...adminAuth, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(errorOf(res, 400, 'invalid_parameter')).toBe('The request body is not valid JSON.');
  });

  it('Content-Type: application/json with no body is no body where the body is optional', async () => {
    const res = await a.ctx.app.inject({
      method: 'POST',
      url: `${ADMIN}/accounts/${encodeURIComponent('Owner One')}/keys`,
      headers: { ...adminAuth, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(201);
    // …and where a body is needed, it says so.
    const needs = await a.ctx.app.inject({
      method: 'POST',
      url: `${ADMIN}/accounts`,
      headers: { ...adminAuth, 'content-type': 'application/json' },
    });
    expect(errorOf(needs, 400, 'invalid_parameter')).toBe(
      'This endpoint needs a JSON body (Content-Type: application/json).',
    );
  });

  it('the import sent as application/json says to use application/x-ndjson', async () => {
    for (const payload of ['{"type":"lab","slug":"x","name":"X"}', '{"type":"lab"}\n{"type":"lab"}\n']) {
      const res = await a.ctx.app.inject({
        method: 'POST',
        url: `${ADMIN}/import`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload,
      });
      expect(errorOf(res, 415, 'unsupported_media_type')).toContain('application/x-ndjson');
    }
  });
});
