import { describe, expect, it } from 'vitest';
import { checkReadiness } from '../../../src/core/health/readiness.ts';

describe('readiness', () => {
  const ok = async () => 1;
  const fails = async () => {
    throw new Error('connection refused');
  };
  const hangs = () => new Promise<never>(() => {});

  it('ready when the database answers and Redis is not configured', async () => {
    expect(await checkReadiness({ database: ok })).toEqual({
      ready: true,
      checks: { database: 'ok', redis: 'not configured' },
    });
  });

  it('ready when both answer', async () => {
    expect(await checkReadiness({ database: ok, redis: ok })).toEqual({
      ready: true,
      checks: { database: 'ok', redis: 'ok' },
    });
  });

  it('not ready when either fails', async () => {
    expect(await checkReadiness({ database: fails, redis: ok })).toEqual({
      ready: false,
      checks: { database: 'unreachable', redis: 'ok' },
    });
    expect(await checkReadiness({ database: ok, redis: fails })).toEqual({
      ready: false,
      checks: { database: 'ok', redis: 'unreachable' },
    });
  });

  it('a probe that hangs is unreachable after its time limit, not a hung check', async () => {
    const started = Date.now();
    const r = await checkReadiness({ database: hangs, redis: hangs }, 50);
    expect(r).toEqual({ ready: false, checks: { database: 'unreachable', redis: 'unreachable' } });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
