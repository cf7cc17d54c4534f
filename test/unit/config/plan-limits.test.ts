import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULTS, loadConfig } from '../../../src/config/config.ts';

/** Plan limits obey the bounds of custom limits (decision 0006), 0 allowed for a plan without access. */
describe('loadConfig: plan limits are bounded', () => {
  const withLimits = (
    hourly: Partial<typeof DEFAULTS.limits.hourly>,
    daily: Partial<typeof DEFAULTS.limits.daily>,
  ) =>
    loadConfig(
      {},
      {
        limits: {
          hourly: { ...DEFAULTS.limits.hourly, ...hourly },
          daily: { ...DEFAULTS.limits.daily, ...daily },
        },
      },
    );

  it('accepts the defaults and the bounds themselves', () => {
    expect(loadConfig({}).limits).toEqual(DEFAULTS.limits);
    expect(withLimits({ custom: 10_000_000 }, { custom: 1_000_000, free: 0 }).limits.daily.custom).toBe(
      1_000_000,
    );
  });

  it.each([
    [{ custom: 1e22 }, {}, 'limits.hourly.custom'],
    [{ pro: 2.5 }, {}, 'limits.hourly.pro'],
    [{}, { custom: 2_000_000_000 }, 'limits.daily.custom'],
    [{}, { enterprise: -1 }, 'limits.daily.enterprise'],
  ])('refuses hourly %j daily %j naming %s', (hourly, daily, name) => {
    expect(() => withLimits(hourly, daily)).toThrow(ConfigError);
    expect(() => withLimits(hourly, daily)).toThrow(name);
  });
});
