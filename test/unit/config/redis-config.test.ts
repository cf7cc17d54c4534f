import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';

describe('REDIS_PREFIX', () => {
  it('defaults to purerank: and takes a deployment’s own', () => {
    expect(loadConfig({}).redisPrefix).toBe('purerank:');
    expect(loadConfig({ REDIS_PREFIX: 'eu-1:purerank:' }).redisPrefix).toBe('eu-1:purerank:');
  });

  it.each(['has space', 'x'.repeat(65), 'brace{', '*'])('refuses %s with a one-line reason', (raw) => {
    expect(() => loadConfig({ REDIS_PREFIX: raw })).toThrow(/REDIS_PREFIX must be 1 to 64 letters/);
  });
});
