import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { Receiver, type Setup, setup } from './helpers.ts';

/**
 * The webhook routes over a real socket (the server's own request handler, fast path first), not
 * only through inject(): the whole lifecycle, conditional GETs, and hostile requests refused with
 * the documented error body. None of these routes is a cached read, so the fast path never answers.
 */
describe.each(DIALECTS)('webhook routes over a real socket (%s)', (dialect) => {
  let s: Setup;
  let rx: Receiver;
  let base: string;
  beforeAll(async () => {
    s = await setup(dialect);
    rx = await Receiver.start();
    base = `${await s.ctx.app.listen({ port: 0, host: '127.0.0.1' })}/v1`;
  });
  afterAll(async () => {
    await rx?.close();
    await s?.ctx.close();
  });

  const call = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${s.a.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body }),
    });

  const errorOf = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code, status });
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'request_id', 'status']);
    expect(String(body.error.message)).not.toMatch(/\bat .*\.(ts|js):\d+|select |insert /i);
    return String(body.error.message);
  };

  it('create, list, get (ETag and 304), update, test, delete', async () => {
    const served = s.ctx.app.fastPath.served;
    const created = await call('POST', '/webhooks', JSON.stringify({ url: rx.url, events: ['*'] }));
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.headers.get('x-ratelimit-limit')).not.toBeNull();
    const ep = (await created.json()) as { id: string; secret: string };
    expect(ep.secret).toMatch(/^whsec_/);

    const list = await call('GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(JSON.stringify(await list.json())).not.toContain(ep.secret);

    const one = await call('GET', `/webhooks/${ep.id}`);
    const etag = one.headers.get('etag');
    expect(one.status).toBe(200);
    expect(etag).not.toBeNull();
    expect((await call('GET', `/webhooks/${ep.id}`, undefined, { 'if-none-match': etag! })).status).toBe(304);

    const patched = await call('PATCH', `/webhooks/${ep.id}`, JSON.stringify({ description: 'socket' }));
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { description: string }).description).toBe('socket');
    // The answer changed, so the old ETag no longer matches.
    expect((await call('GET', `/webhooks/${ep.id}`, undefined, { 'if-none-match': etag! })).status).toBe(200);

    const heard = rx.received.length;
    const tested = await call('POST', `/webhooks/${ep.id}/test`);
    expect(tested.status).toBe(200);
    expect(rx.received.length).toBe(heard + 1);

    expect((await call('DELETE', `/webhooks/${ep.id}`)).status).toBe(204);
    expect((await call('GET', `/webhooks/${ep.id}`)).status).toBe(404);
    expect(s.ctx.app.fastPath.served).toBe(served);
  });

  it('hostile requests get the documented error body and change nothing', async () => {
    const before = (await (await call('GET', '/webhooks')).json()) as { total: number };
    await errorOf(await call('POST', '/webhooks', '{"url": "'), 400, 'invalid_parameter');
    await errorOf(
      await call(
        'POST',
        '/webhooks',
        JSON.stringify({ url: rx.url, events: ['*'], description: 'x'.repeat(20_000) }),
      ),
      413,
      'file_too_large',
    );
    await errorOf(
      await call('POST', '/webhooks', 'url=x', { 'content-type': 'text/plain' }),
      415,
      'unsupported_media_type',
    );
    await errorOf(
      await call(
        'POST',
        '/webhooks',
        `{"url": ${JSON.stringify(rx.url)}, "events": ["*"], "__proto__": {"admin": true}}`,
      ),
      400,
      'invalid_parameter',
    );
    // Unauthenticated: 401, and no rate-limit headers (nothing was counted or remembered).
    const anon = await fetch(`${base}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    await errorOf(anon, 401, 'invalid_api_key');
    expect(anon.headers.get('x-ratelimit-limit')).toBeNull();
    await errorOf(await call('GET', '/webhooks/ep_000000000000000000000000'), 404, 'not_found');
    expect(((await (await call('GET', '/webhooks')).json()) as { total: number }).total).toBe(before.total);
  });
});
