import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, loadConfig } from '../../../src/config/config.ts';

describe('dashboard settings', () => {
  it('defaults: no public URL, 8 h idle, 7 days at most, links 72 h', () => {
    expect(loadConfig({}).pages).toEqual(DEFAULTS.pages);
    expect(DEFAULTS.pages).toEqual({
      publicUrl: null,
      sessionIdleMs: 8 * 3_600_000,
      sessionMaxMs: 7 * 24 * 3_600_000,
      linkTtlMs: 72 * 3_600_000,
    });
  });

  it('reads every variable; the public URL loses its trailing slash', () => {
    const c = loadConfig({
      PURERANK_PUBLIC_URL: 'https://purerank.example/',
      PURERANK_SESSION_IDLE_MINUTES: '30',
      PURERANK_SESSION_MAX_HOURS: '12',
      PURERANK_LINK_HOURS: '24',
    });
    expect(c.pages).toEqual({
      publicUrl: 'https://purerank.example',
      sessionIdleMs: 30 * 60_000,
      sessionMaxMs: 12 * 3_600_000,
      linkTtlMs: 24 * 3_600_000,
    });
  });

  it.each(['purerank.example', 'ftp://purerank.example', 'javascript:alert(1)', 'https://'])(
    'refuses PURERANK_PUBLIC_URL=%s with a one-line reason',
    (raw) => {
      expect(() => loadConfig({ PURERANK_PUBLIC_URL: raw })).toThrow(ConfigError);
      expect(() => loadConfig({ PURERANK_PUBLIC_URL: raw })).toThrow(
        /PURERANK_PUBLIC_URL must be an absolute http\(s\) URL/,
      );
    },
  );

  it('refuses out-of-range durations', () => {
    expect(() => loadConfig({ PURERANK_SESSION_IDLE_MINUTES: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ PURERANK_LINK_HOURS: 'soon' })).toThrow(ConfigError);
  });

  it('PURERANK_TRUST_PROXY: unset trusts nobody; hops or addresses; anything else is refused', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ PURERANK_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ PURERANK_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    for (const bad of ['true', '0', '11', 'proxy.example', '1.2.3.4;rm'])
      expect(() => loadConfig({ PURERANK_TRUST_PROXY: bad })).toThrow(/PURERANK_TRUST_PROXY must be/);
  });
});
