import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/core/errors.ts';
import { EVENT_TYPES } from '../../../src/core/events/model.ts';
import {
  checkDescription,
  checkEvents,
  checkOverlap,
  checkUrl,
  DEFAULT_OVERLAP_SECONDS,
  MAX_DESCRIPTION_LENGTH,
  MAX_OVERLAP_SECONDS,
  MAX_URL_LENGTH,
  subscribes,
  type UrlPolicy,
} from '../../../src/core/webhooks/endpoint-rules.ts';

/** A resolver from a fixed table, recording what it was asked; unknown names do not resolve. */
function table(entries: Record<string, string[] | Error>) {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<string[]> => {
    asked.push(host);
    const a = entries[host];
    if (a === undefined)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    if (a instanceof Error) throw a;
    return a;
  };
  return { resolve, asked };
}

const PUBLIC = table({
  'example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'hooks.example.com': ['203.0.114.1'],
  'xn--bcher-kva.example': ['93.184.215.14'],
  'split.example.com': ['93.184.215.14', '10.0.0.7'], // one public, one private
  'metadata.example.com': ['169.254.169.254'],
  'v6-local.example.com': ['fd00:ec2::254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'empty.example.com': [],
  'garbage.example.com': ['not-an-ip'],
  localhost: ['127.0.0.1', '::1'],
  'localhost.': ['127.0.0.1'],
  'broken.example.com': new Error('resolver exploded\n    at evil (/srv/x.js:1:1)'),
});
const strict: UrlPolicy = { allowPrivate: false, resolve: PUBLIC.resolve };
const lax: UrlPolicy = { allowPrivate: true, resolve: PUBLIC.resolve };

/** The refusal as the API will show it: code, the field, and the words. */
async function refusal(
  p: Promise<unknown> | (() => unknown),
): Promise<{ code: string; field: unknown; message: string }> {
  try {
    if (typeof p === 'function') p();
    else await p;
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { code: e.code, field: e.details?.parameter, message: e.message };
  }
  throw new Error('expected a refusal, got a value');
}

describe('checkUrl: form', () => {
  it('accepts an https URL and returns the parser\u2019s normal form', async () => {
    expect(await checkUrl('https://example.com/webhooks', strict)).toBe('https://example.com/webhooks');
    expect(await checkUrl('HTTPS://Example.COM:443/a/../b?x=1', strict)).toBe('https://example.com/b?x=1');
    expect(await checkUrl('https://hooks.example.com:8443/in', strict)).toBe(
      'https://hooks.example.com:8443/in',
    );
    expect(await checkUrl('https://bücher.example/', strict)).toBe('https://xn--bcher-kva.example/');
  });

  it.each([
    ['http://example.com/hook', 'must use https.'],
    ['ftp://example.com/hook', 'must use https.'],
    ['file:///etc/passwd', 'must use https.'],
    ['javascript:alert(1)', 'must use https.'],
    ['gopher://example.com:70/', 'must use https.'],
    ['example.com/hook', 'must be an absolute URL'],
    ['/relative', 'must be an absolute URL'],
    ['', 'must be an absolute URL'],
    ['https://', 'must be an absolute URL'],
    ['https://exa mple.com/', 'must be an absolute URL'],
    ['https://[fe80::1%25eth0]/', 'must be an absolute URL'], // a zone id is not a URL host
    ['https://user:pw@example.com/', 'must not carry a user name or password.'],
    ['https://user@example.com/', 'must not carry a user name or password.'],
    ['https://:pw@example.com/', 'must not carry a user name or password.'],
    ['https://example.com/#frag', 'must not have a #fragment.'],
    ['https://example.com/#', 'must not have a #fragment.'],
    ['https://example.com/?q=1#', 'must not have a #fragment.'],
  ])('refuses %j', async (raw, words) => {
    const r = await refusal(checkUrl(raw, strict));
    expect(r).toMatchObject({ code: 'invalid_parameter', field: 'url' });
    expect(r.message).toContain(words);
  });

  it('allows http (and only http besides https) when private URLs are allowed', async () => {
    expect(await checkUrl('http://127.0.0.1:3000/hook', lax)).toBe('http://127.0.0.1:3000/hook');
    expect(await checkUrl('http://localhost:3000/hook', lax)).toBe('http://localhost:3000/hook');
    expect((await refusal(checkUrl('ftp://127.0.0.1/', lax))).message).toContain('must use https or http.');
    expect((await refusal(checkUrl('http://u:p@127.0.0.1/', lax))).message).toContain(
      'user name or password',
    );
    expect((await refusal(checkUrl('http://127.0.0.1/#x', lax))).message).toContain('#fragment');
  });

  it('accepts up to 2048 characters, refuses 2049', async () => {
    const base = 'https://example.com/';
    const exact = base + 'a'.repeat(MAX_URL_LENGTH - base.length);
    expect(exact).toHaveLength(2048);
    expect(await checkUrl(exact, strict)).toBe(exact);
    const r = await refusal(checkUrl(`${exact}a`, strict));
    expect(r).toMatchObject({ code: 'invalid_parameter', field: 'url' });
    expect(r.message).toContain('at most 2048 characters');
  });

  it('measures the normal form too (escaping can lengthen what was sent)', async () => {
    const raw = `https://example.com/${'é'.repeat(1000)}`; // 1020 characters, 6020 once %-escaped
    expect(raw.length).toBeLessThan(MAX_URL_LENGTH);
    expect((await refusal(checkUrl(raw, strict))).message).toContain('at most 2048 characters');
  });
});

describe('checkUrl: addresses (SSRF at registration)', () => {
  it.each([
    ['https://10.0.0.1/', '10.0.0.1 is not a public address (private)'],
    ['https://172.16.5.4/', '172.16.5.4 is not a public address (private)'],
    ['https://192.168.1.1/', '192.168.1.1 is not a public address (private)'],
    ['https://127.0.0.1:8080/', '127.0.0.1 is not a public address (loopback)'],
    ['https://0x7f.1/', '127.0.0.1 is not a public address (loopback)'],
    ['https://2130706433/', '127.0.0.1 is not a public address (loopback)'],
    ['https://0177.0.0.01/', '127.0.0.1 is not a public address (loopback)'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is not a public address (linkLocal)'],
    ['https://100.100.100.200/', '100.100.100.200 is not a public address (carrierGradeNat)'],
    ['https://0.0.0.0/', '0.0.0.0 is not a public address (unspecified)'],
    ['https://[::1]/', '::1 is not a public address (loopback)'],
    ['https://[::]/', ':: is not a public address (unspecified)'],
    ['https://[fd00:ec2::254]/', 'fd00:ec2::254 is not a public address (uniqueLocal)'],
    ['https://[fe80::1]/', 'fe80::1 is not a public address (linkLocal)'],
    ['https://[::ffff:10.0.0.1]/', '10.0.0.1 is not a public address (private)'],
    ['https://[::ffff:127.0.0.1]/', '127.0.0.1 is not a public address (loopback)'],
    ['https://[64:ff9b::a00:1]/', '64:ff9b::a00:1 is not a public address (rfc6052)'],
  ])('refuses the literal %s without asking DNS', async (raw, why) => {
    const t = table({});
    const r = await refusal(checkUrl(raw, { allowPrivate: false, resolve: t.resolve }));
    expect(r).toEqual({
      code: 'invalid_parameter',
      field: 'url',
      message: `Parameter 'url' must point to a public address: ${why}.`,
    });
    expect(t.asked).toEqual([]);
  });

  it('accepts a public literal without asking DNS', async () => {
    const t = table({});
    expect(await checkUrl('https://93.184.215.14/x', { allowPrivate: false, resolve: t.resolve })).toBe(
      'https://93.184.215.14/x',
    );
    expect(
      await checkUrl('https://[2606:4700:4700::1111]/', { allowPrivate: false, resolve: t.resolve }),
    ).toBe('https://[2606:4700:4700::1111]/');
    expect(t.asked).toEqual([]);
  });

  it.each([
    ['split.example.com', 'private'],
    ['metadata.example.com', 'linkLocal'],
    ['v6-local.example.com', 'uniqueLocal'],
    ['mapped.example.com', 'loopback'],
    ['localhost', 'loopback'],
    ['garbage.example.com', 'invalid'],
  ])('refuses %s: it resolves to a %s address (any one is enough)', async (host, _cls) => {
    const r = await refusal(checkUrl(`https://${host}/hook`, strict));
    expect(r).toEqual({
      code: 'invalid_parameter',
      field: 'url',
      message: `Parameter 'url' must name a host that resolves, and only to public addresses: ${host} does not.`,
    });
  });

  it('does not echo what a name resolved to (no internal DNS oracle)', async () => {
    for (const host of ['split.example.com', 'metadata.example.com', 'mapped.example.com']) {
      const r = await refusal(checkUrl(`https://${host}/`, strict));
      expect(r.message).not.toMatch(/10\.0\.0\.7|169\.254|127\.0\.0\.1|::ffff/);
    }
  });

  it('judges a trailing-dot name like the name (localhost. is refused)', async () => {
    expect((await refusal(checkUrl('https://localhost./', strict))).message).toContain(
      'only to public addresses',
    );
  });

  it('answers a private name and a name that does not resolve alike (no oracle for internal names)', async () => {
    const text = async (host: string) =>
      (await refusal(checkUrl(`https://${host}/`, strict))).message.replace(host, 'HOST');
    expect(await text('split.example.com')).toBe(await text('nowhere.example.com'));
  });

  it.each(['nowhere.example.com', 'empty.example.com', 'broken.example.com'])(
    'refuses %s: it does not resolve (no resolver detail leaks)',
    async (host) => {
      const r = await refusal(checkUrl(`https://${host}/`, strict));
      expect(r).toEqual({
        code: 'invalid_parameter',
        field: 'url',
        message: `Parameter 'url' must name a host that resolves, and only to public addresses: ${host} does not.`,
      });
    },
  );

  it('accepts a name whose every address is public', async () => {
    expect(await checkUrl('https://example.com/hook', strict)).toBe('https://example.com/hook');
  });

  it('skips the address checks when private URLs are allowed (development and tests)', async () => {
    const t = table({});
    const policy = { allowPrivate: true, resolve: t.resolve };
    expect(await checkUrl('https://10.0.0.1/', policy)).toBe('https://10.0.0.1/');
    expect(await checkUrl('http://[::1]:8080/', policy)).toBe('http://[::1]:8080/');
    expect(await checkUrl('https://anything.internal/', policy)).toBe('https://anything.internal/');
    expect(t.asked).toEqual([]);
  });

  it('never accepts a literal in a refused class, whatever its notation (property)', async () => {
    const privateV4 = fc
      .tuple(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
      )
      .map(([b, c, d]) => (b << 16) | (c << 8) | d);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(10, 127),
        privateV4,
        fc.constantFrom('dotted', 'decimal', 'hex'),
        async (first, rest, notation) => {
          const n = first * 2 ** 24 + rest;
          const dotted = [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
          const host =
            notation === 'dotted' ? dotted : notation === 'decimal' ? String(n) : `0x${n.toString(16)}`;
          const r = await refusal(checkUrl(`https://${host}/`, strict));
          expect(r.message).toContain(`${dotted} is not a public address`);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('checkEvents', () => {
  it('accepts ["*"] alone', () => {
    expect(checkEvents(['*'])).toEqual(['*']);
  });

  it('accepts known types, dropping duplicates and keeping the first order', () => {
    expect(checkEvents(['score.changed'])).toEqual(['score.changed']);
    expect(checkEvents(['coa.rejected', 'score.changed', 'coa.rejected', 'score.changed'])).toEqual([
      'coa.rejected',
      'score.changed',
    ]);
    expect(checkEvents([...EVENT_TYPES, ...EVENT_TYPES])).toEqual([...EVENT_TYPES]);
  });

  it.each([
    [[], 'must name at least one event type'],
    [['*', 'score.changed'], 'is ["*"] alone'],
    [['score.changed', '*'], 'is ["*"] alone'],
    [['*', '*'], 'is ["*"] alone'],
    [['score.changed', 'score.exploded'], "unknown event type 'score.exploded'"],
    [['Score.Changed'], "unknown event type 'Score.Changed'"],
    [[''], "unknown event type ''"],
    [['webhook.test'], "unknown event type 'webhook.test'"],
    [['score.*'], "unknown event type 'score.*'"],
  ])('refuses %j', (raw, words) => {
    try {
      checkEvents(raw);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(DomainError);
      expect((e as DomainError).code).toBe('invalid_parameter');
      expect((e as DomainError).details).toEqual({ parameter: 'events' });
      expect((e as DomainError).message).toContain(words);
    }
  });

  it('any list of known types comes back as its distinct members in first-seen order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENT_TYPES), { minLength: 1, maxLength: 30 }), (list) => {
        expect(checkEvents(list)).toEqual([...new Set(list)]);
      }),
    );
  });
});

describe('checkDescription and checkOverlap', () => {
  it('accepts a description up to 500 characters', () => {
    expect(checkDescription('')).toBe('');
    expect(checkDescription('x'.repeat(MAX_DESCRIPTION_LENGTH))).toHaveLength(500);
    expect(() => checkDescription('x'.repeat(501))).toThrow(/Parameter 'description' must be at most 500/);
  });

  it('defaults the overlap to a day; accepts 0 and 7 days; refuses the rest', () => {
    expect(checkOverlap(undefined)).toBe(DEFAULT_OVERLAP_SECONDS);
    expect(DEFAULT_OVERLAP_SECONDS).toBe(86_400);
    expect(checkOverlap(0)).toBe(0);
    expect(checkOverlap(MAX_OVERLAP_SECONDS)).toBe(604_800);
    for (const bad of [-1, 604_801, 1.5, Number.NaN, Number.POSITIVE_INFINITY, -0.5, 2 ** 53]) {
      expect(() => checkOverlap(bad)).toThrow(
        /Parameter 'overlap_seconds' must be a whole number of seconds from 0 to 604800/,
      );
    }
  });
});

describe('subscribes', () => {
  it('an endpoint on ["*"] receives every type; a list receives its members only', () => {
    for (const t of EVENT_TYPES) expect(subscribes(['*'], t)).toBe(true);
    expect(subscribes(['score.changed'], 'score.changed')).toBe(true);
    expect(subscribes(['score.changed'], 'coa.approved')).toBe(false);
    expect(subscribes(['coa.approved', 'coa.rejected'], 'coa.rejected')).toBe(true);
  });
});
