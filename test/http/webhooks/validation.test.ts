import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../src/config/config.ts';
import { bearer } from '../../support/context.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  A,
  createEndpoint,
  expectError,
  expectInvalid,
  expectRateHeaders,
  Receiver,
  type Setup,
  setup,
} from './helpers.ts';

const OK_URL = 'http://127.0.0.1:9/hook';
const long = (n: number) => 'x'.repeat(n);

/** Bad registrations: the body, and the parameter the 400 must name. */
const BAD_CREATES: [string, unknown, string][] = [
  ['a malformed URL', { url: 'not a url', events: ['*'] }, 'url'],
  ['a relative URL', { url: '/hook', events: ['*'] }, 'url'],
  ['an empty URL', { url: '', events: ['*'] }, 'url'],
  ['a URL of another scheme', { url: 'ftp://127.0.0.1/hook', events: ['*'] }, 'url'],
  ['a URL with credentials', { url: 'http://user:pw@127.0.0.1/hook', events: ['*'] }, 'url'],
  ['a URL with a fragment', { url: 'http://127.0.0.1/hook#x', events: ['*'] }, 'url'],
  ['a URL over 2,048 characters', { url: `http://127.0.0.1/${long(2100)}`, events: ['*'] }, 'url'],
  ['a URL that is a number', { url: 42, events: ['*'] }, 'url'],
  ['a URL that is null', { url: null, events: ['*'] }, 'url'],
  ['no URL', { events: ['*'] }, 'url'],
  ['an empty events list', { url: OK_URL, events: [] }, 'events'],
  ['an unknown event type', { url: OK_URL, events: ['score.changed', 'vendor.deleted'] }, 'events'],
  ['"*" mixed with kinds', { url: OK_URL, events: ['*', 'score.changed'] }, 'events'],
  ['events as a string', { url: OK_URL, events: 'score.changed' }, 'events'],
  ['events holding a number', { url: OK_URL, events: [1] }, 'events'],
  ['no events', { url: OK_URL }, 'events'],
  ['a description that is not text', { url: OK_URL, events: ['*'], description: 5 }, 'description'],
  [
    'a description over 500 characters',
    { url: OK_URL, events: ['*'], description: long(501) },
    'description',
  ],
  ['an unknown field', { url: OK_URL, events: ['*'], secret: 'whsec_mine' }, 'secret'],
  ['`enabled` on create', { url: OK_URL, events: ['*'], enabled: false }, 'enabled'],
];

const BAD_PATCHES: [string, unknown, string][] = [
  ['an empty body', {}, 'body'],
  ['a malformed URL', { url: 'http//nope' }, 'url'],
  ['a URL of another scheme', { url: 'gopher://127.0.0.1/' }, 'url'],
  ['a null URL', { url: null }, 'url'],
  ['an empty events list', { events: [] }, 'events'],
  ['an unknown event type', { events: ['review.deleted'] }, 'events'],
  ['enabled as text', { enabled: 'false' }, 'enabled'],
  ['enabled as a number', { enabled: 0 }, 'enabled'],
  ['enabled null', { enabled: null }, 'enabled'],
  ['a long description', { description: long(501) }, 'description'],
  ['an unknown field', { name: 'x' }, 'name'],
  ['a good field with an unknown one', { description: 'fine', id: 'ep_x' }, 'id'],
  ['a good field with a bad one', { description: 'fine', events: ['nope'] }, 'events'],
  ['a good URL with a bad field', { url: 'http://127.0.0.1:10/other', enabled: 'yes' }, 'enabled'],
];

const BAD_ROTATIONS: [string, unknown, string][] = [
  ['a negative overlap', { overlap_seconds: -1 }, 'overlap_seconds'],
  ['an overlap over 7 days', { overlap_seconds: 604_801 }, 'overlap_seconds'],
  ['a fractional overlap', { overlap_seconds: 1.5 }, 'overlap_seconds'],
  ['an overlap as text', { overlap_seconds: '60' }, 'overlap_seconds'],
  ['a null overlap', { overlap_seconds: null }, 'overlap_seconds'],
  ['an unknown field', { overlap: 60 }, 'overlap'],
];

describe.each(DIALECTS)('webhooks: bad input is 400 naming the field and changes nothing (%s)', (dialect) => {
  let s: Setup;
  let rx: Receiver;
  beforeAll(async () => {
    s = await setup(dialect);
    rx = await Receiver.start();
  });
  afterAll(async () => {
    await rx?.close();
    await s?.ctx.close();
  });

  it.each(BAD_CREATES)('POST /webhooks with %s', async (_what, body, field) => {
    const res = await s.a.call('POST', '/webhooks', body);
    expectInvalid(res, field);
    expectRateHeaders(res);
    expect(await s.ctx.container.store.webhooks.listEndpoints(await accountId('acct-a'))).toEqual([]);
  });

  const accountId = async (name: string) => (await s.ctx.container.store.accounts.findByName(name))!.id;

  it('the messages say what is wrong', async () => {
    const say = async (body: unknown) =>
      expectError(await s.a.call('POST', '/webhooks', body), 400, 'invalid_parameter');
    expect(await say({ url: OK_URL, events: [] })).toBe(
      'Parameter \'events\' must name at least one event type, or be ["*"].',
    );
    expect(await say({ url: 'ftp://127.0.0.1/', events: ['*'] })).toBe(
      "Parameter 'url' must use https or http.",
    );
    expect(await say({ url: OK_URL, events: ['nope'] })).toMatch(
      /^Parameter 'events\.0' must be one of score\.changed, .*review\.reply, \*\.$/,
    );
    expect(await say({ url: OK_URL, events: ['*'], x: 1 })).toBe("Parameter 'x' is not recognised.");
    expect(await say({ url: OK_URL, events: ['*', 'coa.approved'] })).toBe(
      'Parameter \'events\' is ["*"] alone, or a list of event types.',
    );
  });

  describe('PATCH', () => {
    let id: string;
    let before: unknown;
    beforeAll(async () => {
      id = (await createEndpoint(s.a, { url: rx.url, events: ['coa.approved'], description: 'keep' })).id;
      before = (await s.a.call('GET', `/webhooks/${id}`)).json();
    });

    it.each(BAD_PATCHES)('with %s', async (_what, body, field) => {
      s.ctx.clock.advance(1000);
      const res = await s.a.call('PATCH', `/webhooks/${id}`, body);
      expectInvalid(res, field);
      expectRateHeaders(res);
      // Not even updated_at moved.
      expect((await s.a.call('GET', `/webhooks/${id}`)).json()).toEqual(before);
    });

    it('with no body at all', async () => {
      const res = await s.a.call('PATCH', `/webhooks/${id}`);
      expect(expectError(res, 400, 'invalid_parameter')).toBe(
        'This endpoint needs a JSON body (Content-Type: application/json).',
      );
      expect((await s.a.call('GET', `/webhooks/${id}`)).json()).toEqual(before);
    });
  });

  describe('rotate_secret', () => {
    it.each(BAD_ROTATIONS)('with %s', async (_what, body, field) => {
      const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
      expectInvalid(await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, body), field);
      // The secret is as it was: a test delivery carries one signature, the original secret's.
      expect(await s.ctx.container.store.webhooks.secrets(e.id)).toEqual({
        current: e.secret,
        previous: null,
        previousUntil: null,
      });
    });

    it('takes no body, an empty body with Content-Type: application/json, or {}', async () => {
      const e = await createEndpoint(s.a, { url: rx.url, events: ['*'] });
      const none = await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`);
      const empty = await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, '', {
        'content-type': 'application/json',
      });
      const braces = await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, {});
      for (const r of [none, empty, braces]) {
        expect(r.statusCode, r.body).toBe(200);
        expect(r.json().previous_secret_expires_at).not.toBeNull();
      }
      const max = await s.a.call('POST', `/webhooks/${e.id}/rotate_secret`, { overlap_seconds: 604_800 });
      expect(max.json().previous_secret_expires_at).toBe(
        new Date(s.ctx.clock.now() + 604_800_000).toISOString(),
      );
    });
  });

  describe('protocol errors get the documented error body', () => {
    const raw = (
      method: 'POST' | 'PATCH',
      path: string,
      payload: string | Buffer,
      headers: Record<string, string>,
    ) =>
      s.ctx.app.inject({ method, url: `${A}${path}`, headers: { ...bearer(s.a.key), ...headers }, payload });

    it('malformed JSON is 400', async () => {
      const res = await raw('POST', '/webhooks', '{"url": "http://127.0.0.1/", "events": [', {
        'content-type': 'application/json',
      });
      expect(expectError(res, 400, 'invalid_parameter')).toBe('The request body is not valid JSON.');
      expectRateHeaders(res);
    });

    it('bytes that are not UTF-8 are 400', async () => {
      const body = Buffer.concat([
        Buffer.from('{"url":"http://127.0.0.1/'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('","events":["*"]}'),
      ]);
      const res = await raw('POST', '/webhooks', body, { 'content-type': 'application/json' });
      expect(expectError(res, 400, 'invalid_parameter')).toBe('The request body is not valid UTF-8.');
    });

    it('another Content-Type, or none, is 415', async () => {
      const json = JSON.stringify({ url: OK_URL, events: ['*'] });
      const form = await raw('POST', '/webhooks', 'url=x&events=*', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(expectError(form, 415, 'unsupported_media_type')).toContain('application/json');
      const text = await raw('POST', '/webhooks', json, { 'content-type': 'text/plain' });
      expectError(text, 415, 'unsupported_media_type');
      const none = await s.ctx.app.inject({
        method: 'POST',
        url: `${A}/webhooks`,
        headers: { ...bearer(s.a.key), 'content-length': String(json.length) },
        payload: json,
      });
      expect(expectError(none, 415, 'unsupported_media_type')).toBe(
        'The request has a body but no Content-Type header; this endpoint accepts application/json.',
      );
    });

    it('no body is 400: the endpoint needs one', async () => {
      const res = await s.a.call('POST', '/webhooks');
      expect(expectError(res, 400, 'invalid_parameter')).toContain('needs a JSON body');
    });

    it('a body over the limit is 413', async () => {
      const res = await raw(
        'POST',
        '/webhooks',
        JSON.stringify({ url: OK_URL, events: ['*'], description: long(20_000) }),
        {
          'content-type': 'application/json',
        },
      );
      expectError(res, 413, 'file_too_large');
    });

    it('U+0000 in a field is 400 naming it', async () => {
      expectInvalid(
        await s.a.call('POST', '/webhooks', { url: OK_URL, events: ['*'], description: 'a\u0000b' }),
        'description',
      );
    });

    it('none of these created anything', async () => {
      const ids = (await s.a.call('GET', '/webhooks')).json().data.map((e: { url: string }) => e.url);
      expect(ids).not.toContain(OK_URL);
    });
  });

  it('bad query values on /webhooks and /events are 400 naming them', async () => {
    expectInvalid(await s.a.call('GET', '/webhooks?page=1'), 'page');
    for (const [q, field] of [
      ['type=score', 'type'],
      ['type=webhook.test', 'type'],
      ['vendor=Apex', 'vendor'],
      ['vendor=', 'vendor'],
      ['delivery_success=yes', 'delivery_success'],
      ['delivery_success=1', 'delivery_success'],
      ['page=0', 'page'],
      ['per_page=101', 'per_page'],
      ['per_page=ten', 'per_page'],
      ['after=5', 'after'],
    ] as const) {
      expectInvalid(await s.a.call('GET', `/events?${q}`), field);
    }
  });
});

describe.each(DIALECTS)(
  'webhooks: targets must be public https when private URLs are not allowed (%s)',
  (dialect) => {
    let s: Setup;
    beforeAll(async () => {
      s = await setup(dialect, { webhooks: { ...DEFAULTS.webhooks, allowPrivateUrls: false } });
    });
    afterAll(async () => s?.ctx.close());

    it.each([
      'https://127.0.0.1/',
      'https://127.1.2.3:8443/hook',
      'https://localhost/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://[fd00:ec2::254]/',
      'https://[fe80::1]/',
      'https://10.0.0.1/',
      'https://172.16.5.4/',
      'https://192.168.1.1/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://224.0.0.1/',
      'https://2130706433/',
      'https://0x7f000001/',
      'http://example.com/',
      'http://93.184.215.14/hook',
    ])('refuses %s: 400 naming url, nothing created', async (url) => {
      const res = await s.a.call('POST', '/webhooks', { url, events: ['*'] });
      expectInvalid(res, 'url');
      expect((await s.a.call('GET', '/webhooks')).json()).toEqual({ data: [], total: 0 });
    });

    it('takes a public https address, and refuses to move it to a private one', async () => {
      const e = await createEndpoint(s.a, { url: 'https://93.184.215.14/hook', events: ['*'] });
      expect(e.url).toBe('https://93.184.215.14/hook');
      const before = (await s.a.call('GET', `/webhooks/${e.id}`)).json();
      for (const url of ['https://127.0.0.1/', 'https://localhost/', 'http://93.184.215.14/hook']) {
        expectInvalid(await s.a.call('PATCH', `/webhooks/${e.id}`, { url }), 'url');
      }
      expect((await s.a.call('GET', `/webhooks/${e.id}`)).json()).toEqual(before);
    });
  },
);
