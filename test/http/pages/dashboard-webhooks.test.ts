import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../../src/core/webhooks/signing.ts';
import { DIALECTS } from '../../support/databases.ts';
import { privateUrls, Receiver } from '../webhooks/helpers.ts';
import {
  type Dashboard,
  expectCleanMarkup,
  expectHtml,
  expectPage,
  expectRedirect,
  noticeOf,
  postPairs,
  secretOf,
  setupDashboard,
} from './dashboard-fixture.ts';

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

/** The receiver's last request carries a signature by `secret` (one of the space-separated ones). */
function signedBy(r: Receiver, secret: string): boolean {
  const last = r.last();
  const id = String(last.headers['webhook-id']);
  const ts = Number(last.headers['webhook-timestamp']);
  return String(last.headers['webhook-signature'])
    .split(' ')
    .includes(sign(secret, id, ts, last.body));
}

describe.each(DIALECTS)('dashboard: webhooks (%s)', (dialect) => {
  let d: Dashboard;
  let receiver: Receiver;
  let acme: number;
  let id = '';
  let secret = '';

  beforeAll(async () => {
    [d, receiver] = await Promise.all([setupDashboard(dialect, { config: privateUrls() }), Receiver.start()]);
    acme = await d.accountId('acme');
  });
  afterAll(async () => {
    await receiver?.close();
    await d?.close();
  });
  afterEach(() => {
    receiver.answer = { status: 204 };
  });

  const endpoints = () => d.ctx.container.webhooks.list(acme);

  it('lists no endpoint yet, with the registration form', async () => {
    const html = expectPage(await d.p.get('/dashboard/webhooks', d.owner));
    expectCleanMarkup(html);
    expect(html).toContain('No endpoint yet');
    expect(html).toContain('<legend>Events</legend>');
  });

  it('registers an endpoint: the secret is shown once, and signs what is sent', async () => {
    const res = await postPairs(d, '/dashboard/webhooks', d.owner, [
      ['url', receiver.url],
      ['events', 'score.changed'],
      ['events', 'coa.approved'],
      ['description', 'staging <receiver>'],
    ]);
    const html = expectPage(res);
    expectCleanMarkup(html);
    secret = secretOf(html, 'wh-secret') ?? '';
    expect(secret).toMatch(SECRET);
    expect(html).toContain('you will not see it again');
    const [e] = await endpoints();
    id = e!.id;
    expect(e).toMatchObject({
      url: receiver.url,
      events: ['score.changed', 'coa.approved'],
      description: 'staging <receiver>',
    });
    // Escaped, never markup.
    expect(html).toContain('staging &lt;receiver&gt;');
    const list = expectPage(await d.p.get('/dashboard/webhooks', d.owner));
    expect(list).toContain(`href="/dashboard/webhooks/${id}"`);
    expect(list).not.toContain(secret);
    expect(expectPage(await d.p.get(`/dashboard/webhooks/${id}`, d.owner))).not.toContain(secret);
  });

  it('sends a test event and shows the attempt; the delivery log lists it with its attempt', async () => {
    const html = expectPage(await d.p.post(`/dashboard/webhooks/${id}/test`, d.owner, {}));
    expect(noticeOf(html)).toMatch(/^Test event \(evt_\w+\): HTTP 204 after \d+ ms, delivered\.$/);
    expect(receiver.received).toHaveLength(1);
    expect(signedBy(receiver, secret)).toBe(true);
    expect(JSON.parse(receiver.last().body).type).toBe('webhook.test');
    const page = expectPage(await d.p.get(`/dashboard/webhooks/${id}`, d.owner));
    expectCleanMarkup(page);
    expect(page).toContain('<code>webhook.test</code>');
    expect(page).toContain('<span class="badge succeeded">succeeded</span>');
    expect(page).toMatch(/test · HTTP 204 · \d+ ms/);
  });

  it('a failed attempt shows its status and error; redelivering it shows the new attempt', async () => {
    receiver.answer = { status: 500 };
    const html = expectPage(await d.p.post(`/dashboard/webhooks/${id}/test`, d.owner, {}));
    expect(noticeOf(html)).toMatch(/HTTP 500 after \d+ ms — /);
    expect(html).toMatch(/<p class="notice error"/);
    const [failed] = (
      await d.ctx.container.webhooks.deliveries(acme, id, { status: 'failed', limit: 5, offset: 0 })
    ).items;
    expect(failed).toBeDefined();
    const log = expectPage(await d.p.get(`/dashboard/webhooks/${id}?status=failed`, d.owner));
    expect(log).toContain(`/deliveries/${failed!.id}/redeliver`);
    expect(log).toContain('<span class="badge failed">failed</span>');
    receiver.answer = { status: 204 };
    const again = expectPage(
      await d.p.post(`/dashboard/webhooks/${id}/deliveries/${failed!.id}/redeliver`, d.owner, {}),
    );
    expect(noticeOf(again)).toMatch(/^Redelivery \(evt_\w+\): HTTP 204 after \d+ ms, delivered\.$/);
    expect(receiver.last().headers['webhook-id']).toBe(failed!.eventId);
    const after = await d.ctx.container.webhooks.deliveries(acme, id, { limit: 5, offset: 0 });
    const redelivered = after.items.find((x) => x.id === failed!.id)!;
    expect(redelivered.status).toBe('succeeded');
    expect(redelivered.attempts.map((a) => a.trigger).sort()).toEqual(['redeliver', 'test']);
  });

  it('edits url, events, description and enabled; enable again from its button', async () => {
    const res = await postPairs(d, `/dashboard/webhooks/${id}`, d.owner, [
      ['url', `${receiver.url}?v=2`],
      ['events', '*'],
      ['description', 'all of it'],
    ]);
    const location = expectRedirect(res, new RegExp(`^/dashboard/webhooks/${id}\\?done=saved$`));
    expect(noticeOf(expectPage(await d.p.get(location, d.owner)))).toBe('Saved.');
    expect(await d.ctx.container.webhooks.get(acme, id)).toMatchObject({
      url: `${receiver.url}?v=2`,
      events: ['*'],
      description: 'all of it',
      enabled: false,
      disabledReason: 'manual',
    });
    expectRedirect(
      await d.p.post(`/dashboard/webhooks/${id}/enabled`, d.owner, { enabled: 'true' }),
      /done=enabled/,
    );
    expect((await d.ctx.container.webhooks.get(acme, id)).enabled).toBe(true);
  });

  it('rotates the secret with an overlap: the new one shown once, both sign until the old one retires', async () => {
    const html = expectPage(await d.p.post(`/dashboard/webhooks/${id}/rotate`, d.owner, { overlap: '3600' }));
    const next = secretOf(html, 'wh-secret') ?? '';
    expect(next).toMatch(SECRET);
    expect(next).not.toBe(secret);
    const until = new Date(d.ctx.clock.now() + 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(html).toContain(`The old secret also signs every delivery until ${until} UTC`);
    expectPage(await d.p.post(`/dashboard/webhooks/${id}/test`, d.owner, {}));
    expect(signedBy(receiver, next)).toBe(true);
    expect(signedBy(receiver, secret)).toBe(true);
    secret = next;
  });

  it('recovers since a time (UTC, as the form sends it); a time in the future is 400 naming since', async () => {
    const since = new Date(d.ctx.clock.now() - 3_600_000).toISOString().slice(0, 16);
    const html = expectPage(await d.p.post(`/dashboard/webhooks/${id}/recover`, d.owner, { since }));
    expect(noticeOf(html)).toBe('No failed message since then: nothing to recover.');
    const future = new Date(d.ctx.clock.now() + 3_600_000).toISOString().slice(0, 16);
    const bad = await d.p.post(`/dashboard/webhooks/${id}/recover`, d.owner, { since: future });
    expectHtml(bad, 400);
    expect(noticeOf(bad.body)).toContain("'since'");
    expectHtml(await d.p.post(`/dashboard/webhooks/${id}/recover`, d.owner, { since: 'yesterday' }), 400);
  });

  it('bad input is the error page naming the field, and nothing is created or changed', async () => {
    const before = await endpoints();
    const cases: [string, [string, string][], string][] = [
      [
        '/dashboard/webhooks',
        [
          ['url', 'ftp://example.com/x'],
          ['events', '*'],
        ],
        "'url'",
      ],
      ['/dashboard/webhooks', [['url', receiver.url]], "'events'"],
      [
        '/dashboard/webhooks',
        [
          ['url', receiver.url],
          ['events', 'no.such'],
        ],
        "'events'",
      ],
      [
        '/dashboard/webhooks',
        [
          ['url', receiver.url],
          ['events', '*'],
          ['events', 'score.changed'],
        ],
        "'events'",
      ],
      [
        `/dashboard/webhooks/${id}`,
        [
          ['url', 'not a url'],
          ['events', '*'],
        ],
        "'url'",
      ],
      [`/dashboard/webhooks/${id}/rotate`, [['overlap', '99']], "'overlap'"],
    ];
    for (const [url, pairs, names] of cases) {
      const res = await postPairs(d, url, d.owner, pairs);
      expectHtml(res, 400);
      expect(noticeOf(res.body), url).toContain(names);
    }
    expect(await endpoints()).toEqual(before);
  });

  it('forms without the token, or from another site, are 403 and change nothing', async () => {
    const before = await endpoints();
    const attempts = [
      [
        '/dashboard/webhooks',
        [
          ['url', receiver.url],
          ['events', '*'],
        ],
      ],
      [`/dashboard/webhooks/${id}/enabled`, [['enabled', 'false']]],
      [`/dashboard/webhooks/${id}/delete`, []],
    ] as [string, [string, string][]][];
    for (const [url, pairs] of attempts) {
      expectHtml(await postPairs(d, url, d.owner, pairs, { csrf: null }), 403);
      expectHtml(await postPairs(d, url, d.owner, pairs, { origin: 'https://evil.example' }), 403);
    }
    const sent = receiver.received.length;
    expectHtml(
      await postPairs(d, `/dashboard/webhooks/${id}/test`, d.owner, [], { origin: 'https://evil.example' }),
      403,
    );
    expect(receiver.received.length).toBe(sent);
    expect(await endpoints()).toEqual(before);
  });

  it("another account's endpoint is 404 on every page and form, and is not touched", async () => {
    const theirs = await d.ctx.container.webhooks.create(await d.accountId('other'), {
      url: receiver.url,
      events: ['*'],
    });
    const tid = theirs.endpoint.id;
    const sent = receiver.received.length;
    expectHtml(await d.p.get(`/dashboard/webhooks/${tid}`, d.owner), 404);
    for (const [path, fields] of [
      ['', { url: 'http://127.0.0.1:1/x', events: '*' }],
      ['/enabled', { enabled: 'false' }],
      ['/rotate', { overlap: '0' }],
      ['/test', {}],
      ['/recover', { since: '2026-01-01T00:00' }],
      ['/delete', {}],
    ] as [string, Record<string, string>][]) {
      expectHtml(await d.p.post(`/dashboard/webhooks/${tid}${path}`, d.owner, fields), 404);
    }
    expectHtml(await d.p.get('/dashboard/webhooks/ep_nope', d.owner), 404);
    expect(receiver.received.length).toBe(sent);
    expect(await d.ctx.container.webhooks.get(await d.accountId('other'), tid)).toEqual(theirs.endpoint);
    expect(expectPage(await d.p.get('/dashboard/webhooks', d.owner))).not.toContain(tid);
  });

  it('deletes an endpoint behind a confirmation', async () => {
    const page = expectPage(await d.p.get(`/dashboard/webhooks/${id}`, d.owner));
    expect(page).toContain('data-confirm="Delete this endpoint');
    expectRedirect(
      await d.p.post(`/dashboard/webhooks/${id}/delete`, d.owner, {}),
      /^\/dashboard\/webhooks\?deleted=1$/,
    );
    expect(await endpoints()).toEqual([]);
    expectHtml(await d.p.get(`/dashboard/webhooks/${id}`, d.owner), 404);
  });

  it('free and pro accounts see what Enterprise unlocks; their forms are refused and create nothing', async () => {
    for (const who of [d.freeOwner, d.proOwner]) {
      const html = expectPage(await d.p.get('/dashboard/webhooks', who));
      expectCleanMarkup(html);
      expect(html).toContain('Webhooks come with the Enterprise plan');
      expect(html).not.toContain('action="/dashboard/webhooks"');
      expectHtml(
        await postPairs(d, '/dashboard/webhooks', who, [
          ['url', receiver.url],
          ['events', '*'],
        ]),
        403,
      );
    }
    expect(await d.ctx.container.webhooks.list(await d.accountId('procorp'))).toEqual([]);
  });
});
