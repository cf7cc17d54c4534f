import { describe, expect, it } from 'vitest';
import { runCli, suiteDatabase } from './run-cli.ts';

/** Custom limits have bounds (decision 0006): the CLI refuses one above them with one line. */
describe('purerank accounts: limits within their bounds (sqlite)', () => {
  const db = suiteDatabase('sqlite');
  const list = async () => (await runCli(['accounts', 'list'], db.env)).stdout;

  it('create --rate-limit-b 2000000000 and plan --rate-limit-a 1e22 exit 1 with one line; nothing written', async () => {
    const create = await runCli(
      ['accounts', 'create', 'big', '--plan', 'custom', '--rate-limit-b', '2000000000'],
      db.env,
    );
    expect(create.code).toBe(1);
    expect(create.stderr.trim()).toBe(
      'purerank: --rate-limit-b must be between 1 and 1000000, got 2000000000',
    );
    expect(await list()).not.toContain('big');

    expect((await runCli(['accounts', 'create', 'edge', '--plan', 'custom'], db.env)).code).toBe(0);
    const plan = await runCli(
      ['accounts', 'plan', 'edge', '--plan', 'custom', '--rate-limit-a', '1e22'],
      db.env,
    );
    expect(plan.code).toBe(1);
    expect(plan.stderr.trim()).toBe(
      `purerank: --rate-limit-a must be a whole number from 1 to 10000000 or "default", got '1e22'`,
    );
    const ok = await runCli(
      [
        'accounts',
        'plan',
        'edge',
        '--plan',
        'custom',
        '--rate-limit-a',
        '10000000',
        '--rate-limit-b',
        '1000000',
      ],
      db.env,
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('rate limit A 10000000/h, B 1000000/24h');
  });
});
