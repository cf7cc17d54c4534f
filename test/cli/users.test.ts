import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/config.ts';
import { createAccount } from '../../src/core/accounts/manage-accounts.ts';
import { systemClock } from '../../src/core/clock.ts';
import { Identity } from '../../src/core/users/identity.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { oneLine, withDatabase } from './operator-fixture.ts';
import { DIALECTS, runCli, suiteDatabase } from './run-cli.ts';

const PUBLIC = 'https://purerank.example';
const LINK = /^https:\/\/purerank\.example\/dashboard\/welcome\/([A-Za-z0-9_-]{43})$/;

/** The identity use cases in this process, on the database the CLI wrote (as a server would see it). */
const identityOn = (s: OpenedStore) =>
  new Identity({
    users: s.users,
    sessions: s.sessions,
    accounts: s.accounts,
    clock: systemClock,
    pages: DEFAULTS.pages,
    linkBase: () => PUBLIC,
  });

/** The last line of stdout, which must be a link and nothing else; its token. */
function lastLineLink(stdout: string): string {
  const lines = stdout.trimEnd().split('\n');
  expect(lines.length).toBeGreaterThan(1);
  const m = LINK.exec(lines.at(-1)!);
  expect(m, `last line: ${lines.at(-1)}`).not.toBeNull();
  return m![1]!;
}

describe.concurrent.each(DIALECTS)('purerank users (%s)', (dialect) => {
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);
    const env = () => ({ ...db.env, PURERANK_PUBLIC_URL: PUBLIC });
    const cli = (...args: string[]) => runCli(args, env());

    beforeAll(async () => {
      await withDatabase(db.url, async (s) => {
        await createAccount(s, { name: 'acme', plan: 'pro' });
        await createAccount(s, { name: 'other', plan: 'free' });
      });
    });

    it('invite prints what it did, then the one-time link alone on the last line', async () => {
      const r = await cli('users', 'invite', 'Ann@Acme.test', '--account', 'acme', '--as', 'alice');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^invited ann@acme\.test to acme as member\n/);
      const token = lastLineLink(r.stdout);
      await withDatabase(db.url, async (s) => {
        const link = await identityOn(s).inspectLink(token);
        expect(link).toMatchObject({
          purpose: 'invite',
          user: { email: 'ann@acme.test', role: 'member', invitedBy: 'alice' },
        });
      });
      const owner = await cli('users', 'invite', 'boss@acme.test', '--account', 'acme', '--role', 'owner');
      expect(owner.stdout).toContain('to acme as owner');
      lastLineLink(owner.stdout);
      const op = await cli('users', 'invite', 'op@purerank.test', '--operator');
      expect(op.code).toBe(0);
      expect(op.stdout).toMatch(/^invited op@purerank\.test as an operator\n/);
      lastLineLink(op.stdout);
    });

    it.each([
      [['users', 'invite', 'x@acme.test'], /^purerank: give --account NAME \(or --operator\)$/],
      [
        ['users', 'invite', 'x@acme.test', '--account', 'acme', '--operator'],
        /either --account NAME or --operator/,
      ],
      [['users', 'invite', 'x@acme.test', '--operator', '--role', 'owner'], /--role is for account members/],
      [
        ['users', 'invite', 'x@acme.test', '--account', 'acme', '--role', 'admin'],
        /--role must be one of owner, member, got 'admin'/,
      ],
      [
        ['users', 'invite', 'not-an-email', '--account', 'acme'],
        /^purerank: Parameter 'email' must be an email address/,
      ],
      [
        ['users', 'invite', 'x@acme.test', '--account', 'nobody'],
        /^purerank: Parameter 'account' names no account: 'nobody'/,
      ],
      [
        ['users', 'invite', 'ANN@acme.test', '--account', 'other'],
        /^purerank: User 'ann@acme\.test' already exists\.$/,
      ],
      [['users', 'reset', 'ghost@acme.test'], /^purerank: User 'ghost@acme\.test' does not exist\.$/],
      [['users', 'disable', 'ghost@acme.test'], /^purerank: User 'ghost@acme\.test' does not exist\.$/],
      [['users', 'list', '--account', 'nobody'], /^purerank: Parameter 'account' names no account/],
    ])('%j fails with one line on stderr, exit 1, nothing on stdout', async (args, message) => {
      const before = (await cli('users', 'list', '--json')).stdout;
      const r = await cli(...args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(oneLine(r.stderr)).toMatch(message);
      expect((await cli('users', 'list', '--json')).stdout).toBe(before);
    });

    it('reset prints a new link alone on the last line; the earlier one stops working', async () => {
      const first = lastLineLink(
        (await cli('users', 'invite', 'reset@acme.test', '--account', 'acme')).stdout,
      );
      const r = await cli('users', 'reset', 'RESET@acme.test');
      expect(r.code).toBe(0);
      // Not accepted yet: it is a new invitation.
      expect(r.stdout).toMatch(/^a new invitation link \(not accepted yet\) for reset@acme\.test/);
      const second = lastLineLink(r.stdout);
      await withDatabase(db.url, async (s) => {
        const id = identityOn(s);
        expect(await id.inspectLink(first)).toBeNull();
        await id.followLink(second, 'a long enough password', { address: '127.0.0.1', userAgent: null });
      });
      const again = await cli('users', 'reset', 'reset@acme.test');
      expect(again.stdout).toMatch(/^a reset link for reset@acme\.test/);
      const third = lastLineLink(again.stdout);
      await withDatabase(db.url, async (s) => {
        expect((await identityOn(s).inspectLink(third))?.purpose).toBe('reset');
      });
    });

    it('list shows state and account, filters by account, and prints JSON; disable takes effect', async () => {
      const all = await cli('users', 'list');
      expect(all.code).toBe(0);
      const lines = all.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^EMAIL\s+ROLE\s+ACCOUNT\s+STATE\s+CREATED\s+LAST SIGN-IN\s+INVITED BY$/);
      expect(all.stdout).toMatch(/^op@purerank\.test\s+operator\s+-\s+invited\s/m);
      expect(all.stdout).toMatch(/^reset@acme\.test\s+member\s+acme\s+active\s/m);
      const acme = JSON.parse((await cli('users', 'list', '--account', 'acme', '--json')).stdout) as Record<
        string,
        unknown
      >[];
      expect(acme.map((u) => u.email)).toEqual(['ann@acme.test', 'boss@acme.test', 'reset@acme.test']);
      expect(acme[0]).toEqual({
        email: 'ann@acme.test',
        role: 'member',
        account: 'acme',
        hasPassword: false,
        disabledAt: null,
        createdAt: expect.any(String),
        lastSignInAt: null,
        invitedBy: 'alice',
      });
      expect((await cli('users', 'list', '--account', 'other')).stdout).toBe('no users\n');

      const off = await cli('users', 'disable', 'reset@acme.test');
      expect(off.code).toBe(0);
      expect(off.stdout).toBe('disabled reset@acme.test; their sessions ended\n');
      expect((await cli('users', 'list')).stdout).toMatch(/^reset@acme\.test\s+member\s+acme\s+disabled\s/m);
      await withDatabase(db.url, async (s) => {
        const r = await identityOn(s).signIn('reset@acme.test', 'a long enough password', {
          address: '127.0.0.1',
          userAgent: null,
        });
        expect(r).toEqual({ ok: false, reason: 'invalid' });
      });
      const twice = await cli('users', 'disable', 'reset@acme.test');
      expect(twice.code).toBe(1);
      expect(oneLine(twice.stderr)).toBe("purerank: User 'reset@acme.test' is already disabled.");
    });

    it('without PURERANK_PUBLIC_URL the link points at this machine’s port', async () => {
      const r = await runCli(['users', 'invite', 'local@acme.test', '--account', 'acme'], {
        ...db.env,
        PORT: '4321',
      });
      expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(
        /^http:\/\/127\.0\.0\.1:4321\/dashboard\/welcome\/[A-Za-z0-9_-]{43}$/,
      );
    });

    it('--help shows the users commands', async () => {
      const r = await cli('users', '--help');
      expect(r.code).toBe(0);
      for (const c of ['invite', 'reset', 'list', 'disable'])
        expect(r.stdout).toMatch(new RegExp(`^  ${c}`, 'm'));
    });
  });
});
