import { describe, expect, it } from 'vitest';
import { DIALECTS, runCli, suiteDatabase } from './run-cli.ts';

describe.concurrent.each(DIALECTS)('purerank accounts and keys (%s)', (dialect) => {
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);

    it('--help lists every command and exits 0 (through the launcher, bin/purerank.js)', async () => {
      const r = await runCli(['--help'], db.env, undefined, { viaBin: true });
      expect(r.code).toBe(0);
      for (const c of ['serve', 'migrate', 'import', 'seed', 'accounts', 'keys'])
        expect(r.stdout).toContain(c);
      const sub = await runCli(['keys', 'create', '--help'], db.env);
      expect(sub.code).toBe(0);
      expect(sub.stdout).toContain('--name');
    });

    it('refuses a bad plan with one line and creates nothing', async () => {
      const r = await runCli(['accounts', 'create', 'acme', '--plan', 'gold'], db.env);
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^purerank: --plan must be one of free, pro, enterprise, custom/);
      expect((await runCli(['accounts', 'list'], db.env)).stdout).not.toContain('acme');
    });

    it('creates, lists and revokes keys; the key is alone on the last line', async () => {
      expect((await runCli(['accounts', 'create', 'acme', '--plan', 'enterprise'], db.env)).code).toBe(0);
      const dup = await runCli(['accounts', 'create', 'acme', '--plan', 'pro'], db.env);
      expect(dup.code).toBe(1);
      expect(dup.stderr).toContain("Account 'acme' already exists.");

      const created = await runCli(['keys', 'create', 'acme', '--name', 'ci'], db.env);
      expect(created.code).toBe(0);
      const key = created.stdout.trimEnd().split('\n').at(-1)!;
      expect(key).toMatch(/^prk_live_[0-9A-Za-z]{32}$/);

      const listed = await runCli(['keys', 'list', 'acme'], db.env);
      expect(listed.stdout).toContain(key.slice(0, 13));
      expect(listed.stdout).not.toContain(key);
      expect(listed.stdout).toContain('active');

      const revoked = await runCli(['keys', 'revoke', key.slice(0, 13)], db.env);
      expect(revoked.code).toBe(0);
      expect(revoked.stdout).toMatch(/^revoked key_/);
      const again = await runCli(['keys', 'revoke', key], db.env);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('already revoked');
      expect((await runCli(['keys', 'list', 'acme'], db.env)).stdout).toContain('revoked');
    });

    it('fails cleanly for unknown accounts, keys and commands', async () => {
      const noAccount = await runCli(['keys', 'create', 'nobody'], db.env);
      expect(noAccount.code).toBe(1);
      expect(noAccount.stderr.trim()).toBe("purerank: Account 'nobody' does not exist.");
      const noKey = await runCli(['keys', 'revoke', 'key_doesnotexist'], db.env);
      expect(noKey.code).toBe(1);
      const unknown = await runCli(['frobnicate'], db.env);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    });
  });
});
