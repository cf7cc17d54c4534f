import { describe, expect, it } from 'vitest';
import { DIALECTS, runCli, suiteDatabase } from './run-cli.ts';

const ONLY_CUSTOM =
  /^purerank: rateLimitA applies to the custom plan only; plan 'enterprise' uses its own limits\.$/;

/**
 * Per-account limits belong to the custom plan (docs/operator-cli.md): a limit with another plan is
 * refused with one line and changes nothing, instead of being printed back and then ignored.
 */
describe.concurrent.each(DIALECTS)('purerank accounts: limits are for the custom plan (%s)', (dialect) => {
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);
    const list = async () => (await runCli(['accounts', 'list'], db.env)).stdout;

    it('accounts plan --plan enterprise --rate-limit-a 5: exit 1, one line, nothing changed', async () => {
      expect((await runCli(['accounts', 'create', 'acme', '--plan', 'pro'], db.env)).code).toBe(0);
      const r = await runCli(
        ['accounts', 'plan', 'acme', '--plan', 'enterprise', '--rate-limit-a', '5'],
        db.env,
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(ONLY_CUSTOM);
      expect(await list()).toMatch(/^acme\tpro\t/m);
    });

    it('accounts create with a limit and a plan other than custom: exit 1, one line, nothing created', async () => {
      const r = await runCli(
        ['accounts', 'create', 'zeta', '--plan', 'enterprise', '--rate-limit-a', '5'],
        db.env,
      );
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(ONLY_CUSTOM);
      expect(await list()).not.toContain('zeta');
    });

    it('custom takes limits; moving to another plan clears them', async () => {
      const custom = await runCli(
        ['accounts', 'plan', 'acme', '--plan', 'custom', '--rate-limit-a', '5', '--rate-limit-b', '9'],
        db.env,
      );
      expect(custom.code, custom.stderr).toBe(0);
      expect(custom.stdout).toContain('plan custom (was pro); rate limit A 5/h, B 9/24h');
      const off = await runCli(['accounts', 'plan', 'acme', '--plan', 'enterprise'], db.env);
      expect(off.code, off.stderr).toBe(0);
      expect(off.stdout).toContain('plan enterprise (was custom); rate limit A plan default, B plan default');
      const back = await runCli(['accounts', 'plan', 'acme', '--plan', 'custom'], db.env);
      expect(back.stdout).toContain('rate limit A plan default, B plan default');
    });
  });
});
