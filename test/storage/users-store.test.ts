import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../../src/core/accounts/model.ts';
import type { LinkRow, SessionRow } from '../../src/core/users/ports.ts';
import type { OpenedStore } from '../../src/storage/open-store.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, openFreshStore } from './support.ts';

const at = (minutes: number): string => new Date(Date.UTC(2026, 5, 1, 12, minutes)).toISOString();
let n = 0;
const link = (purpose: 'invite' | 'reset' = 'invite', expires = at(60)): LinkRow => ({
  tokenHash: `link-${++n}-`.padEnd(64, '0'),
  purpose,
  createdAt: at(0),
  expiresAt: expires,
});
const session = (userId: number, over: Partial<SessionRow> = {}): SessionRow => ({
  idHash: `sess-${++n}-`.padEnd(64, '0'),
  userId,
  csrfToken: `csrf-${n}`,
  createdAt: at(0),
  lastSeenAt: at(0),
  expiresAt: at(600),
  address: '192.0.2.1',
  userAgent: 'test',
  ...over,
});

describe.each(DIALECTS)('storage contract: users, links, sessions (%s)', (dialect) => {
  let fresh: FreshStore;
  let store: OpenedStore;
  let acme: Account;
  let other: Account;

  beforeAll(async () => {
    fresh = await openFreshStore(dialect);
    store = fresh.store;
    acme = await store.accounts.create({ name: 'acme', plan: 'pro' });
    other = await store.accounts.create({ name: 'other', plan: 'free' });
  });
  afterAll(async () => fresh?.close());

  /**
   * Another connection, to race against. On SQLite, a second connection in this one process would
   * wait for the first's write lock synchronously (better-sqlite3 blocks the thread, so the first
   * never gets to commit): there the race runs on the one connection, whose transactions Kysely
   * queues; two processes race in the CLI and server suites.
   */
  const rival = async (): Promise<OpenedStore> => (dialect === 'postgres' ? fresh.openSecond() : store);

  const create = async (email: string, accountId: number | null, role: 'owner' | 'member' | 'operator') => {
    const l = link();
    const u = await store.users.create({
      email,
      accountId,
      role,
      invitedBy: 'tester',
      createdAt: at(0),
      link: l,
    });
    if (!u) throw new Error('not created');
    return { user: u, link: l };
  };

  it('creates a user with its first link, joined with its account; an operator has none', async () => {
    const { user, link: l } = await create('ann@acme.test', acme.id, 'owner');
    expect(user).toMatchObject({
      email: 'ann@acme.test',
      role: 'owner',
      account: { id: acme.id, name: 'acme', plan: 'pro' },
      hasPassword: false,
      passwordHash: null,
      disabledAt: null,
      createdAt: at(0),
      lastSignInAt: null,
      invitedBy: 'tester',
      failedSignIns: 0,
      lockedUntil: null,
    });
    const found = await store.users.findLink(l.tokenHash);
    expect(found?.link).toEqual({ ...l, usedAt: null });
    expect(found?.user.id).toBe(user.id);
    const op = await create('op@purerank.test', null, 'operator');
    expect(op.user.account).toBeNull();
    expect(await store.users.findByEmail('op@purerank.test')).toEqual(op.user);
    expect(await store.users.findById(op.user.id)).toEqual(op.user);
    expect(await store.users.findByEmail('nobody@x.test')).toBeNull();
  });

  it('refuses a taken email with null and writes nothing', async () => {
    const l = link();
    expect(
      await store.users.create({
        email: 'ann@acme.test',
        accountId: other.id,
        role: 'member',
        invitedBy: 'x',
        createdAt: at(0),
        link: l,
      }),
    ).toBeNull();
    expect(await store.users.findLink(l.tokenHash)).toBeNull();
    expect((await store.users.list()).filter((u) => u.email === 'ann@acme.test')).toHaveLength(1);
  });

  it('lists by email, all or one account, without hashes or counters', async () => {
    await create('zed@acme.test', acme.id, 'member');
    await create('bob@other.test', other.id, 'owner');
    const all = await store.users.list();
    expect(all.map((u) => u.email)).toEqual([...all.map((u) => u.email)].sort());
    expect(all.every((u) => !('passwordHash' in u) && !('failedSignIns' in u))).toBe(true);
    expect((await store.users.list({ accountId: acme.id })).map((u) => u.email)).toEqual([
      'ann@acme.test',
      'zed@acme.test',
    ]);
  });

  it('a new link deletes the older unused ones of the user only', async () => {
    const { user, link: first } = await create('sup@acme.test', acme.id, 'member');
    const ann = await store.users.findByEmail('ann@acme.test');
    const second = link('reset');
    await store.users.issueLink(user.id, second);
    expect(await store.users.findLink(first.tokenHash)).toBeNull();
    expect((await store.users.findLink(second.tokenHash))?.link.purpose).toBe('reset');
    expect((await store.users.list()).find((u) => u.id === ann!.id)).toBeDefined();
  });

  it('accepts a link once: password set, failures cleared, old sessions ended, a new one opened', async () => {
    const { user, link: l } = await create('acc@acme.test', acme.id, 'member');
    const old = session(user.id);
    await store.sessions.open(old);
    await store.users.chargeSignIn(user.id, 5, at(0), at(100));
    const opened = session(user.id, { createdAt: at(5), lastSeenAt: at(5) });
    const { userId: _, ...row } = opened;
    const accepted = await store.users.acceptLink({
      tokenHash: l.tokenHash,
      nowIso: at(5),
      passwordHash: 'scrypt$hash',
      session: row,
    });
    expect(accepted).toMatchObject({
      id: user.id,
      hasPassword: true,
      passwordHash: 'scrypt$hash',
      failedSignIns: 0,
    });
    expect(accepted?.lastSignInAt).toBe(at(5));
    expect(await store.sessions.find(old.idHash)).toBeNull();
    expect((await store.sessions.find(opened.idHash))?.session).toEqual(opened);
    expect((await store.users.findLink(l.tokenHash))?.link.usedAt).toBe(at(5));
    const again = await store.users.acceptLink({
      tokenHash: l.tokenHash,
      nowIso: at(6),
      passwordHash: 'scrypt$other',
      session: { ...row, idHash: 'x'.repeat(64) },
    });
    expect(again).toBeNull();
    expect((await store.users.findById(user.id))?.passwordHash).toBe('scrypt$hash');
    expect(await store.sessions.find('x'.repeat(64))).toBeNull();
  });

  it('refuses an expired link, and a disabled user’s link, writing nothing', async () => {
    const a = await create('exp@acme.test', acme.id, 'member');
    const b = await create('dis@acme.test', acme.id, 'member');
    const s = (id: string) => ({ ...session(0), idHash: id.padEnd(64, 'y') });
    const { userId: _u, ...expiredSession } = s('e');
    expect(
      await store.users.acceptLink({
        tokenHash: a.link.tokenHash,
        nowIso: at(60),
        passwordHash: 'h',
        session: expiredSession,
      }),
    ).toBeNull();
    await store.users.disable(b.user.id, at(1));
    const { userId: _v, ...disabledSession } = s('d');
    expect(
      await store.users.acceptLink({
        tokenHash: b.link.tokenHash,
        nowIso: at(2),
        passwordHash: 'h',
        session: disabledSession,
      }),
    ).toBeNull();
    expect((await store.users.findById(a.user.id))?.passwordHash).toBeNull();
    expect(await store.sessions.find('e'.padEnd(64, 'y'))).toBeNull();
  });

  it('two stores following one link at once: exactly one succeeds', async () => {
    const second = await rival();
    for (let round = 0; round < 5; round++) {
      const { link: l } = await create(`race${round}@acme.test`, acme.id, 'member');
      const attempt = (s: OpenedStore, tag: string) => {
        const { userId: _, ...row } = session(0);
        return s.users.acceptLink({
          tokenHash: l.tokenHash,
          nowIso: at(1),
          passwordHash: `h-${tag}`,
          session: { ...row, idHash: `${tag}-${round}`.padEnd(64, 'r') },
        });
      };
      const results = await Promise.all([attempt(store, 'a'), attempt(second, 'b')]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
      const winner = results.find((r) => r !== null)!;
      const sessions = await Promise.all(
        ['a', 'b'].map((t) => store.sessions.find(`${t}-${round}`.padEnd(64, 'r'))),
      );
      expect(sessions.filter((x) => x !== null)).toHaveLength(1);
      expect(winner.passwordHash).toBe(sessions.find((x) => x !== null)!.user.passwordHash);
    }
  });

  it('charges attempts in one statement, locks at the threshold, refuses while locked, starts over after', async () => {
    const { user } = await create('fail@acme.test', acme.id, 'member');
    for (let i = 1; i <= 4; i++) expect(await store.users.chargeSignIn(user.id, 5, at(1), at(30))).toBe(true);
    expect((await store.users.findById(user.id))?.failedSignIns).toBe(4);
    // The 5th is still checked, and sets the lock as it goes.
    expect(await store.users.chargeSignIn(user.id, 5, at(1), at(30))).toBe(true);
    expect(await store.users.findById(user.id)).toMatchObject({ failedSignIns: 0, lockedUntil: at(30) });
    // Locked: refused, nothing counted.
    expect(await store.users.chargeSignIn(user.id, 5, at(2), at(31))).toBe(false);
    expect(await store.users.findById(user.id)).toMatchObject({ failedSignIns: 0, lockedUntil: at(30) });
    // After the lock: counting starts over and the lock is lifted.
    expect(await store.users.chargeSignIn(user.id, 5, at(30), at(60))).toBe(true);
    expect(await store.users.findById(user.id)).toMatchObject({ failedSignIns: 1, lockedUntil: null });
    // Concurrent attempts through two connections: exactly the 4 that fit are let through.
    const second = await rival();
    const results = await Promise.all(
      [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
        (i % 2 ? second : store).users.chargeSignIn(user.id, 5, at(31), at(40)),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(4);
    expect(await store.users.findById(user.id)).toMatchObject({ failedSignIns: 0, lockedUntil: at(40) });
    // A sign-in clears them.
    await store.sessions.open(session(user.id, { createdAt: at(7) }));
    expect(await store.users.findById(user.id)).toMatchObject({
      failedSignIns: 0,
      lockedUntil: null,
      lastSignInAt: at(7),
    });
  });

  it('disable ends sessions and unused links; the user stays listed as disabled', async () => {
    const { user, link: l } = await create('off@acme.test', acme.id, 'member');
    const s = session(user.id);
    await store.sessions.open(s);
    const off = await store.users.disable(user.id, at(3));
    expect(off?.disabledAt).toBe(at(3));
    expect(await store.sessions.find(s.idHash)).toBeNull();
    expect(await store.users.findLink(l.tokenHash)).toBeNull();
    // Again: unchanged.
    expect((await store.users.disable(user.id, at(9)))?.disabledAt).toBe(at(3));
    expect(await store.users.disable(999_999, at(9))).toBeNull();
  });

  it('sessions: find with the user, touch never backwards, delete one or all of a user', async () => {
    const { user } = await create('ses@acme.test', acme.id, 'member');
    const a = session(user.id);
    const b = session(user.id);
    await store.sessions.open(a);
    await store.sessions.open(b);
    await store.sessions.touch(a.idHash, at(10));
    await store.sessions.touch(a.idHash, at(8));
    expect((await store.sessions.find(a.idHash))?.session.lastSeenAt).toBe(at(10));
    expect((await store.sessions.find(a.idHash))?.user.email).toBe('ses@acme.test');
    await store.sessions.delete(a.idHash);
    expect(await store.sessions.find(a.idHash)).toBeNull();
    expect(await store.sessions.deleteForUser(user.id)).toBe(1);
    expect(await store.sessions.find(b.idHash)).toBeNull();
  });

  it('purges sessions past either expiry and links used or expired, nothing else', async () => {
    const { user } = await create('pur@acme.test', acme.id, 'member');
    const live = session(user.id, { lastSeenAt: at(50), expiresAt: at(500) });
    const idle = session(user.id, { lastSeenAt: at(10), expiresAt: at(500) });
    const old = session(user.id, { lastSeenAt: at(55), expiresAt: at(59) });
    for (const s of [live, idle, old]) await store.sessions.open(s);
    expect(await store.sessions.purgeExpired(at(60), at(20))).toBeGreaterThanOrEqual(2);
    expect(await store.sessions.find(live.idHash)).not.toBeNull();
    expect(await store.sessions.find(idle.idHash)).toBeNull();
    expect(await store.sessions.find(old.idHash)).toBeNull();

    const fresh1 = link('reset', at(500));
    await store.users.issueLink(user.id, fresh1);
    const u2 = await create('pur2@acme.test', acme.id, 'member');
    await store.users.purgeLinks(at(60));
    expect(await store.users.findLink(fresh1.tokenHash)).not.toBeNull();
    expect(await store.users.findLink(u2.link.tokenHash)).toBeNull(); // expired at(60)
  });

  it('removes a member of the account only, never its last active owner', async () => {
    const owner = (await store.users.findByEmail('ann@acme.test'))!;
    const member = (await store.users.findByEmail('zed@acme.test'))!;
    const s = session(member.id);
    await store.sessions.open(s);
    const bob = (await store.users.findByEmail('bob@other.test'))!;
    expect(await store.users.removeMember(acme.id, bob.id)).toBe('not_found');
    expect(await store.users.removeMember(acme.id, 999_999)).toBe('not_found');
    expect(await store.users.removeMember(acme.id, member.id)).toBe('removed');
    expect(await store.users.findById(member.id)).toBeNull();
    expect(await store.sessions.find(s.idHash)).toBeNull();
    expect(await store.users.removeMember(acme.id, owner.id)).toBe('last_owner');
    expect(await store.users.findById(owner.id)).not.toBeNull();
    expect(await store.users.removeMember(other.id, bob.id)).toBe('last_owner');
  });

  it('two owners removing each other at once: one stays', async () => {
    const acct = await store.accounts.create({ name: 'pair', plan: 'pro' });
    const a = (await create('a@pair.test', acct.id, 'owner')).user;
    const b = (await create('b@pair.test', acct.id, 'owner')).user;
    const second = await rival();
    const outcomes = await Promise.all([
      store.users.removeMember(acct.id, b.id),
      second.users.removeMember(acct.id, a.id),
    ]);
    expect(outcomes.sort()).toEqual(['last_owner', 'removed']);
    expect(await store.users.list({ accountId: acct.id })).toHaveLength(1);
  });
});
