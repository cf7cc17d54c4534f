import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/config.ts';
import { HOUR_MS, ManualClock } from '../../src/core/clock.ts';
import { DomainError } from '../../src/core/errors.ts';
import { Identity } from '../../src/core/users/identity.ts';
import type { ClientInfo, IssuedLink, User } from '../../src/core/users/model.ts';
import { hashToken } from '../../src/core/users/tokens.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, openFreshStore, T0 } from './support.ts';

const MIN = 60_000;
const PAGES = DEFAULTS.pages;
const PASSWORD = 'correct horse battery staple';
const BASE = 'https://purerank.example';

let addr = 0;
/** A client of its own address, so the per-address throttle stays out of tests about other things. */
const client = (address = `198.51.100.${++addr % 250}`): ClientInfo => ({ address, userAgent: 'vitest' });

async function refused(p: Promise<unknown>, code: string, parameter?: string): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'expected a DomainError').toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe(code);
  if (parameter) expect((err as DomainError).details).toEqual({ parameter });
  return (err as DomainError).message;
}

describe.each(DIALECTS)('identity use cases on real storage (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let clock: ManualClock;
  let id: Identity;

  const identityOn = (s: OpenedStore) =>
    new Identity({
      users: s.users,
      sessions: s.sessions,
      accounts: s.accounts,
      clock,
      pages: PAGES,
      linkBase: () => BASE,
    });

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    clock = new ManualClock(T0);
    id = identityOn(store);
    await store.accounts.create({ name: 'acme', plan: 'pro' });
    await store.accounts.create({ name: 'other', plan: 'free' });
  });
  afterAll(async () => fresh?.close());

  const tokenOf = (link: IssuedLink): string => {
    expect(link.url).toBe(`${BASE}/dashboard/welcome/${link.token}`);
    return link.token;
  };
  /** An accepted user of acme with PASSWORD, and the session the link opened. */
  const member = async (email: string, role: 'owner' | 'member' = 'member') => {
    const link = await id.invite({ email, account: 'acme', role, invitedBy: 'tester' });
    const opened = await id.followLink(tokenOf(link), PASSWORD, client());
    return { user: opened.session.user, cookie: opened.token };
  };

  describe('invitations', () => {
    it('invites to an account by name: a one-time link valid 72 h; the email normalised; who invited kept', async () => {
      const link = await id.invite({
        email: '  Ann@Acme.TEST ',
        account: 'acme',
        role: 'owner',
        invitedBy: 'alice',
      });
      expect(link.purpose).toBe('invite');
      expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(link.expiresAt).toBe(new Date(T0 + 72 * HOUR_MS).toISOString());
      expect(link.user).toMatchObject({
        email: 'ann@acme.test',
        role: 'owner',
        account: { name: 'acme', plan: 'pro' },
        hasPassword: false,
        invitedBy: 'alice',
      });
      expect(link.user).not.toHaveProperty('passwordHash');
      // Only the hash of the token is stored.
      const row = await store.kysely
        .selectFrom('user_links')
        .selectAll()
        .where('user_id', '=', link.user.id)
        .execute();
      expect(row.map((r) => r.token_hash)).toEqual([hashToken(link.token)]);
      expect(JSON.stringify(row)).not.toContain(link.token);
    });

    it('invites an operator to no account', async () => {
      const link = await id.invite({
        email: 'op@purerank.test',
        account: null,
        role: 'operator',
        invitedBy: 'root',
      });
      expect(link.user).toMatchObject({ role: 'operator', account: null });
    });

    it.each([
      [{ email: 'not an email', account: 'acme', role: 'member' }, 'invalid_parameter', 'email'],
      [{ email: 'x@acme.test', account: 'nobody', role: 'member' }, 'invalid_parameter', 'account'],
      [{ email: 'x@acme.test', account: 'acme', role: 'admin' }, 'invalid_parameter', 'role'],
      [{ email: 'x@acme.test', account: 'acme', role: 'operator' }, 'invalid_parameter', 'role'],
      [{ email: 'x@acme.test', account: null, role: 'member' }, 'invalid_parameter', 'role'],
      [{ email: 'ANN@acme.test', account: 'other', role: 'member' }, 'conflict', undefined],
    ] as const)('refuses %j (%s %s) and writes nothing', async (input, code, parameter) => {
      const before = (await id.list()).length;
      await refused(id.invite({ ...input, role: input.role as 'member', invitedBy: 't' }), code, parameter);
      expect((await id.list()).length).toBe(before);
    });
  });

  describe('links', () => {
    it('following sets the password and signs in; the link then works no more', async () => {
      const link = await id.invite({
        email: 'once@acme.test',
        account: 'acme',
        role: 'member',
        invitedBy: 't',
      });
      const token = tokenOf(link);
      expect(await id.inspectLink(token)).toMatchObject({
        purpose: 'invite',
        user: { email: 'once@acme.test' },
      });
      const opened = await id.followLink(token, PASSWORD, client());
      expect(opened.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(opened.session.user).toMatchObject({ email: 'once@acme.test', hasPassword: true });
      expect((await id.session(opened.token))?.user.email).toBe('once@acme.test');
      expect(await id.inspectLink(token)).toBeNull();
      await refused(id.followLink(token, 'another long password', client()), 'not_found');
      expect((await id.signIn('once@acme.test', PASSWORD, client())).ok).toBe(true);
      expect((await id.signIn('once@acme.test', 'another long password', client())).ok).toBe(false);
    });

    it('a too short password is refused naming `password`, and the link still works', async () => {
      const link = await id.invite({
        email: 'short@acme.test',
        account: 'acme',
        role: 'member',
        invitedBy: 't',
      });
      await refused(id.followLink(link.token, 'short', client()), 'invalid_parameter', 'password');
      expect(await id.inspectLink(link.token)).not.toBeNull();
      expect((await store.users.findByEmail('short@acme.test'))?.passwordHash).toBeNull();
    });

    it('expires after 72 h on the injected clock', async () => {
      const link = await id.invite({
        email: 'late@acme.test',
        account: 'acme',
        role: 'member',
        invitedBy: 't',
      });
      clock.advance(72 * HOUR_MS - 1);
      expect(await id.inspectLink(link.token)).not.toBeNull();
      clock.advance(1);
      expect(await id.inspectLink(link.token)).toBeNull();
      await refused(id.followLink(link.token, PASSWORD, client()), 'not_found');
      clock.set(T0);
    });

    it('a newer link supersedes older unused ones; a reset before acceptance is still a welcome', async () => {
      const first = await id.invite({
        email: 'sup@acme.test',
        account: 'acme',
        role: 'member',
        invitedBy: 't',
      });
      const second = await id.reset('SUP@acme.test');
      expect(second.purpose).toBe('invite');
      expect(await id.inspectLink(first.token)).toBeNull();
      const third = await id.reset('sup@acme.test');
      expect(await id.inspectLink(second.token)).toBeNull();
      const opened = await id.followLink(third.token, PASSWORD, client());
      // Now a reset is a reset; following it ends every older session and opens a new one.
      const reset = await id.reset('sup@acme.test');
      expect(reset.purpose).toBe('reset');
      const other = await id.signIn('sup@acme.test', PASSWORD, client());
      expect(other.ok).toBe(true);
      const renewed = await id.followLink(reset.token, 'a brand new password', client());
      expect(await id.session(opened.token)).toBeNull();
      if (other.ok) expect(await id.session(other.session.token)).toBeNull();
      expect(await id.session(renewed.token)).not.toBeNull();
      expect((await id.signIn('sup@acme.test', PASSWORD, client())).ok).toBe(false);
      expect((await id.signIn('sup@acme.test', 'a brand new password', client())).ok).toBe(true);
    });

    it('two follows of one link at once (two instances on PostgreSQL): exactly one signs in', async () => {
      // On SQLite a second connection in this process would block the thread on the first's write
      // lock (users-store.test.ts says why); there the two follows share the store.
      const rival = dialect === 'postgres' ? identityOn(await fresh.openSecond()) : id;
      for (let round = 0; round < 3; round++) {
        const link = await id.invite({
          email: `race${round}@acme.test`,
          account: 'acme',
          role: 'member',
          invitedBy: 't',
        });
        const results = await Promise.allSettled([
          id.followLink(link.token, 'first racer password', client()),
          rival.followLink(link.token, 'second racer password', client()),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        expect(won).toHaveLength(1);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect((lost.reason as DomainError).code).toBe('not_found');
        const sessions = await store.kysely
          .selectFrom('sessions')
          .select('id_hash')
          .where('user_id', '=', link.user.id)
          .execute();
        expect(sessions).toHaveLength(1);
      }
    });

    it('reset: an unknown email is not_found, a disabled user conflict', async () => {
      await refused(id.reset('nobody@acme.test'), 'not_found');
      await refused(id.reset('nonsense'), 'invalid_parameter', 'email');
      await id.invite({ email: 'gone@acme.test', account: 'acme', role: 'member', invitedBy: 't' });
      await id.disable('gone@acme.test');
      await refused(id.reset('gone@acme.test'), 'conflict');
    });
  });

  describe('sign-in and sessions', () => {
    it('a wrong password, an unknown email, a user without a password and a disabled user all get `invalid`', async () => {
      const { user } = await member('sig@acme.test');
      expect(await id.signIn('sig@acme.test', 'wrong password!!', client())).toEqual({
        ok: false,
        reason: 'invalid',
      });
      expect(await id.signIn('nobody@acme.test', PASSWORD, client())).toEqual({
        ok: false,
        reason: 'invalid',
      });
      expect(await id.signIn('not an email', PASSWORD, client())).toEqual({ ok: false, reason: 'invalid' });
      await id.invite({ email: 'nopass@acme.test', account: 'acme', role: 'member', invitedBy: 't' });
      expect(await id.signIn('nopass@acme.test', '', client())).toEqual({ ok: false, reason: 'invalid' });
      const ok = await id.signIn(' SIG@acme.test ', PASSWORD, client());
      expect(ok.ok).toBe(true);
      await id.disable('sig@acme.test');
      expect(await id.signIn('sig@acme.test', PASSWORD, client())).toEqual({ ok: false, reason: 'invalid' });
      if (ok.ok) expect(await id.session(ok.session.token)).toBeNull();
      expect((await store.users.findById(user.id))?.disabledAt).not.toBeNull();
    });

    it('each sign-in is a new session with its own form token; sessions are stored only hashed', async () => {
      await member('two@acme.test');
      const a = await id.signIn('two@acme.test', PASSWORD, client());
      const b = await id.signIn('two@acme.test', PASSWORD, client());
      if (!a.ok || !b.ok) throw new Error('sign-in failed');
      expect(a.session.token).not.toBe(b.session.token);
      expect(a.session.session.csrfToken).not.toBe(b.session.session.csrfToken);
      const rows = await store.kysely.selectFrom('sessions').selectAll().execute();
      expect(rows.some((r) => r.id_hash === hashToken(a.session.token))).toBe(true);
      expect(JSON.stringify(rows)).not.toContain(a.session.token);
      expect(await id.session('not-a-token')).toBeNull();
      expect(await id.session('A'.repeat(43))).toBeNull();
    });

    it('idle expiry: used within the idle time it lives on; last seen is written at most once a minute', async () => {
      const { cookie } = await member('idle@acme.test');
      const seen = async () =>
        (
          await store.kysely
            .selectFrom('sessions')
            .select('last_seen_at')
            .where('id_hash', '=', hashToken(cookie))
            .executeTakeFirst()
        )?.last_seen_at;
      const start = clock.now();
      clock.advance(30_000);
      expect(await id.session(cookie)).not.toBeNull();
      expect(await seen()).toBe(new Date(start).toISOString());
      clock.advance(31_000);
      const s = await id.session(cookie);
      expect(await seen()).toBe(new Date(start + 61_000).toISOString());
      // Last seen may lag the last request by up to a minute: the idle time counts from the latest the
      // request could have been, so an active session never ends early (hostile test F7).
      expect(s?.idleExpiresAt).toBe(new Date(start + 61_000 + 60_000 + PAGES.sessionIdleMs).toISOString());
      clock.advance(PAGES.sessionIdleMs - 1);
      expect(await id.session(cookie)).not.toBeNull();
      clock.advance(PAGES.sessionIdleMs + 60_000);
      expect(await id.session(cookie)).toBeNull();
      expect(await seen()).toBeUndefined();
      clock.set(T0);
    });

    it('absolute expiry: a session used all the time still ends sessionMaxMs after sign-in', async () => {
      const { cookie } = await member('abs@acme.test');
      const start = clock.now();
      while (clock.now() + HOUR_MS < start + PAGES.sessionMaxMs) {
        clock.advance(HOUR_MS);
        expect(await id.session(cookie)).not.toBeNull();
      }
      clock.set(start + PAGES.sessionMaxMs);
      expect(await id.session(cookie)).toBeNull();
      clock.set(T0);
    });

    it('sign-out ends one session; sign-out everywhere ends them all', async () => {
      const { user, cookie } = await member('out@acme.test');
      const b = await id.signIn('out@acme.test', PASSWORD, client());
      const c = await id.signIn('out@acme.test', PASSWORD, client());
      if (!b.ok || !c.ok) throw new Error('sign-in failed');
      await id.signOut(b.session.token);
      expect(await id.session(b.session.token)).toBeNull();
      expect(await id.session(cookie)).not.toBeNull();
      await id.signOut('garbage');
      expect(await id.signOutEverywhere(user.id)).toBe(2);
      expect(await id.session(cookie)).toBeNull();
      expect(await id.session(c.session.token)).toBeNull();
    });
  });

  describe('throttling', () => {
    it('per user: the 5th failure locks sign-in for 15 minutes, on every instance, even with the right password, answered like a wrong password', async () => {
      await member('lock@acme.test');
      const invalid = { ok: false, reason: 'invalid' };
      for (let i = 1; i <= 5; i++)
        expect(await id.signIn('lock@acme.test', 'wrong password!!', client())).toEqual(invalid);
      expect((await store.users.findByEmail('lock@acme.test'))?.lockedUntil).toBe(
        new Date(T0 + 15 * MIN).toISOString(),
      );
      // Locked: the right password is refused, with exactly the answer an unknown email gets.
      expect(await id.signIn('lock@acme.test', PASSWORD, client())).toEqual(invalid);
      expect(await id.signIn('nobody@acme.test', PASSWORD, client())).toEqual(invalid);
      // Another instance (its own memory) reads the lock from the database.
      const other = identityOn(dialect === 'postgres' ? await fresh.openSecond() : store);
      clock.advance(10 * MIN);
      expect(await other.signIn('lock@acme.test', PASSWORD, client())).toEqual(invalid);
      clock.advance(5 * MIN);
      expect((await other.signIn('lock@acme.test', PASSWORD, client())).ok).toBe(true);
      expect(await store.users.findByEmail('lock@acme.test')).toMatchObject({
        failedSignIns: 0,
        lockedUntil: null,
      });
      clock.set(T0);
    });

    it('a burst of concurrent guesses is charged as it arrives: at most 5 passwords of a user are checked, and 20 attempts of an address', async () => {
      await member('burst@acme.test');
      // From many addresses at once: the user's charge stops the burst after 5 checks, so the right
      // password sent in the same burst, after them, does not get in (hostile test F1).
      const guesses = Array.from({ length: 30 }, (_, i) =>
        id.signIn('burst@acme.test', `wrong guess ${i}!`, client(`198.51.100.${i + 1}`)),
      );
      const right = id.signIn('burst@acme.test', PASSWORD, client('198.51.100.200'));
      const results = await Promise.all([...guesses, right]);
      expect(results.every((r) => !r.ok)).toBe(true);
      expect((await store.users.findByEmail('burst@acme.test'))?.lockedUntil).not.toBeNull();
      // From one address at once (unknown emails): 20 are charged, the rest refused at once with 429.
      const fromOne = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          id.signIn(`nobody${i}@acme.test`, 'wrong password!!', client('192.0.2.9')),
        ),
      );
      expect(fromOne.filter((r) => !r.ok && r.reason === 'throttled')).toHaveLength(20);
      clock.set(T0);
    });

    it('per address: 20 failures from one address refuse it for 15 minutes; others are not affected; nothing is kept per unknown email', async () => {
      await member('addr@acme.test');
      const fresh = new Identity({
        users: store.users,
        sessions: store.sessions,
        accounts: store.accounts,
        clock,
        pages: PAGES,
        linkBase: () => BASE,
      });
      const attacker = client('203.0.113.66');
      const usersBefore = await store.kysely.selectFrom('users').selectAll().orderBy('email').execute();
      for (let i = 0; i < 20; i++)
        expect((await fresh.signIn(`guess${i}@acme.test`, 'wrong password!!', attacker)).ok).toBe(false);
      expect(await fresh.signIn('addr@acme.test', PASSWORD, attacker)).toEqual({
        ok: false,
        reason: 'throttled',
        retryAfterS: 900,
      });
      expect((await fresh.signIn('addr@acme.test', PASSWORD, client('203.0.113.67'))).ok).toBe(true);
      // Unknown emails left no row and changed no user.
      const usersAfter = await store.kysely.selectFrom('users').selectAll().orderBy('email').execute();
      expect(usersAfter.map((u) => [u.email, u.failed_sign_ins, u.locked_until])).toEqual(
        usersBefore.map((u) => [u.email, u.failed_sign_ins, u.locked_until]),
      );
      expect(fresh.addresses.size).toBe(1);
      clock.advance(15 * MIN);
      expect((await fresh.signIn('addr@acme.test', PASSWORD, attacker)).ok).toBe(true);
      clock.set(T0);
    });
  });

  describe('members', () => {
    let owner: User;
    beforeAll(async () => {
      owner = (await member('boss@acme.test', 'owner')).user;
    });

    it('an owner invites into their own account; a member or an operator cannot', async () => {
      const link = await id.inviteMember(owner, 'New@acme.test', 'member');
      expect(link.user).toMatchObject({
        email: 'new@acme.test',
        role: 'member',
        account: { name: 'acme' },
        invitedBy: 'boss@acme.test',
      });
      const plain = (await member('plain@acme.test')).user;
      await refused(id.inviteMember(plain, 'x2@acme.test', 'member'), 'not_found');
      const op = (
        await id.invite({ email: 'op2@purerank.test', account: null, role: 'operator', invitedBy: 't' })
      ).user;
      await refused(id.inviteMember(op, 'x3@acme.test', 'member'), 'not_found');
      await refused(
        id.inviteMember(owner, 'x4@acme.test', 'operator' as 'member'),
        'invalid_parameter',
        'role',
      );
      await refused(id.inviteMember(owner, 'bad', 'member'), 'invalid_parameter', 'email');
      await refused(id.inviteMember(owner, 'plain@acme.test', 'owner'), 'conflict');
    });

    it('an owner removes a member (their sessions end); not another account’s user, not themselves', async () => {
      const { user: m, cookie } = await member('leaver@acme.test');
      const outsider = (
        await id.invite({ email: 'out@other.test', account: 'other', role: 'owner', invitedBy: 't' })
      ).user;
      await refused(id.removeMember(owner, outsider.id), 'not_found');
      await refused(id.removeMember(owner, 999_999), 'not_found');
      await refused(id.removeMember(owner, owner.id), 'conflict');
      await refused(id.removeMember(m, owner.id), 'not_found');
      await id.removeMember(owner, m.id);
      expect(await id.session(cookie)).toBeNull();
      expect((await id.list({ account: 'acme' })).map((u) => u.email)).not.toContain('leaver@acme.test');
      // Another owner may be removed while one remains.
      const second = (await member('boss2@acme.test', 'owner')).user;
      await id.removeMember(owner, second.id);
      expect(await store.users.findById(second.id)).toBeNull();
    });
  });

  describe('listing, disabling, purging', () => {
    it('lists all users or one account’s, by email; an unknown account is invalid_parameter', async () => {
      const all = await id.list();
      expect(all.map((u) => u.email)).toEqual([...all.map((u) => u.email)].sort());
      const acme = await id.list({ account: 'acme' });
      expect(acme.length).toBeGreaterThan(0);
      expect(acme.every((u) => u.account?.name === 'acme')).toBe(true);
      expect(await id.list({ accountId: acme[0]!.account!.id })).toEqual(acme);
      await refused(id.list({ account: 'nobody' }), 'invalid_parameter', 'account');
    });

    it('disable: sessions end at once; unknown is not_found; twice is conflict', async () => {
      const { cookie } = await member('dis@acme.test');
      const u = await id.disable('DIS@acme.test');
      expect(u.disabledAt).toBe(new Date(clock.now()).toISOString());
      expect(await id.session(cookie)).toBeNull();
      await refused(id.disable('dis@acme.test'), 'conflict');
      await refused(id.disable('ghost@acme.test'), 'not_found');
    });

    it('purges expired sessions and used or expired links', async () => {
      const { cookie } = await member('purge@acme.test');
      const pending = await id.invite({
        email: 'pend@acme.test',
        account: 'acme',
        role: 'member',
        invitedBy: 't',
      });
      clock.advance(PAGES.sessionIdleMs + 1);
      const later = await id.invite({
        email: 'later@acme.test',
        account: 'acme',
        role: 'member',
        invitedBy: 't',
      });
      clock.advance(72 * HOUR_MS - PAGES.sessionIdleMs);
      const purged = await id.purgeExpired();
      expect(purged.sessions).toBeGreaterThan(0);
      expect(purged.links).toBeGreaterThan(0);
      expect(await store.sessions.find(hashToken(cookie))).toBeNull();
      expect(await store.users.findLink(hashToken(pending.token))).toBeNull();
      expect(await store.users.findLink(hashToken(later.token))).not.toBeNull();
      const used = await store.kysely
        .selectFrom('user_links')
        .select('used_at')
        .where('used_at', 'is not', null)
        .execute();
      expect(used).toEqual([]);
      clock.set(T0);
    });
  });
});
