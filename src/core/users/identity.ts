import { type Clock, isoTime } from '../clock.ts';
import { DomainError, invalidParameter } from '../errors.ts';
import type { AccountStore } from '../ports.ts';
import { AddressThrottle, type AddressThrottleOptions } from './address-throttle.ts';
import { normaliseEmail, requireEmail } from './emails.ts';
import { linkUrl } from './links.ts';
import type {
  ClientInfo,
  IdentityService,
  IssuedLink,
  LinkPurpose,
  NewSession,
  SignedIn,
  SignInResult,
  User,
  UserRole,
} from './model.ts';
import { USER_ROLES } from './model.ts';
import {
  checkPassword,
  dummyVerify,
  hashPassword,
  needsRehash,
  plausiblePassword,
  verifyPassword,
} from './passwords.ts';
import type { SessionRow, SessionStore, StoredUser, UserStore } from './ports.ts';
import { hashToken, isTokenShaped, newToken } from './tokens.ts';

/** Failed sign-ins of one user before a lock, and how long the lock lasts. */
export interface UserThrottleOptions {
  /** (Default: 5) */
  maxFailures: number;
  /** (Default: 15 minutes) */
  lockMs: number;
}
export const USER_THROTTLE: UserThrottleOptions = { maxFailures: 5, lockMs: 15 * 60_000 };

/** A session's last_seen_at is written at most this often: not one write per page. */
export const TOUCH_EVERY_MS = 60_000;

const INVITED_BY_MAX = 254;
const USER_AGENT_MAX = 300;
const ADDRESS_MAX = 64;

export interface IdentityDeps {
  users: UserStore;
  sessions: SessionStore;
  accounts: Pick<AccountStore, 'findByName'>;
  clock: Clock;
  /** config.pages: session idle and absolute expiry, link lifetime. */
  pages: { sessionIdleMs: number; sessionMaxMs: number; linkTtlMs: number };
  /** The base of the links it issues (links.ts `linkBase`), asked at each issue. */
  linkBase: () => string;
  throttle?: { user?: Partial<UserThrottleOptions>; address?: Partial<AddressThrottleOptions> };
}

/** What the pages and the operator see of a user: never the hash or the throttle's counters. */
const publicUser = (u: StoredUser): User => ({
  id: u.id,
  email: u.email,
  role: u.role,
  account: u.account,
  hasPassword: u.hasPassword,
  disabledAt: u.disabledAt,
  createdAt: u.createdAt,
  lastSignInAt: u.lastSignInAt,
  invitedBy: u.invitedBy,
});

const invalidLink = (): DomainError =>
  new DomainError('not_found', 'This link has expired or has been used already; ask for a new one.');

/**
 * The identity use cases (issue [8]; DESIGN.md §6): invitations and resets as one-time links,
 * sign-in with throttling, server-side sessions, owners' member management.
 */
export class Identity implements IdentityService {
  private readonly userThrottle: UserThrottleOptions;
  /** Per instance, in memory: an address's failures (a user's are stored, so they hold across instances). */
  readonly addresses: AddressThrottle;

  constructor(private readonly deps: IdentityDeps) {
    this.userThrottle = { ...USER_THROTTLE, ...deps.throttle?.user };
    this.addresses = new AddressThrottle(deps.throttle?.address);
  }

  // ---- invitations and resets ----------------------------------------------------------------

  async invite(input: {
    email: string;
    account: string | null;
    role: UserRole;
    invitedBy: string;
  }): Promise<IssuedLink> {
    const email = requireEmail(input.email);
    const role = this.roleFor(input.account, input.role);
    let accountId: number | null = null;
    if (input.account !== null) {
      const account = await this.deps.accounts.findByName(input.account);
      if (!account) throw invalidParameter('account', `names no account: '${input.account.slice(0, 100)}'.`);
      accountId = account.id;
    }
    return this.issueInvite(email, accountId, role, input.invitedBy);
  }

  async reset(rawEmail: string): Promise<IssuedLink> {
    const user = await this.existing(rawEmail);
    if (user.disabledAt) throw new DomainError('conflict', `User '${user.email}' is disabled.`);
    // Someone who never accepted their invitation is still being invited: the page says "Welcome".
    const purpose: LinkPurpose = user.hasPassword ? 'reset' : 'invite';
    const { token, link } = this.newLink(purpose);
    await this.deps.users.issueLink(user.id, link);
    return this.issued(user, purpose, token, link.expiresAt);
  }

  async list(filter: { accountId?: number; account?: string } = {}): Promise<User[]> {
    if (filter.account !== undefined) {
      const account = await this.deps.accounts.findByName(filter.account);
      if (!account) throw invalidParameter('account', `names no account: '${filter.account.slice(0, 100)}'.`);
      if (filter.accountId !== undefined && filter.accountId !== account.id) return [];
      return this.deps.users.list({ accountId: account.id });
    }
    return this.deps.users.list(filter.accountId === undefined ? {} : { accountId: filter.accountId });
  }

  async disable(rawEmail: string): Promise<User> {
    const user = await this.existing(rawEmail);
    if (user.disabledAt) throw new DomainError('conflict', `User '${user.email}' is already disabled.`);
    const done = await this.deps.users.disable(user.id, isoTime(this.deps.clock.now()));
    if (!done) throw new DomainError('not_found', `User '${user.email}' does not exist.`);
    return publicUser(done);
  }

  // ---- following a link ----------------------------------------------------------------------

  async inspectLink(token: string): Promise<{ user: User; purpose: LinkPurpose; expiresAt: string } | null> {
    if (!isTokenShaped(token)) return null;
    const found = await this.deps.users.findLink(hashToken(token));
    if (!found) return null;
    const { link, user } = found;
    if (link.usedAt !== null || link.expiresAt <= isoTime(this.deps.clock.now()) || user.disabledAt)
      return null;
    return { user: publicUser(user), purpose: link.purpose, expiresAt: link.expiresAt };
  }

  async followLink(token: string, password: string, client: ClientInfo): Promise<NewSession> {
    checkPassword(password);
    // Checked before the costly hash, and again by the store's conditional update (which decides).
    if (!(await this.inspectLink(token))) throw invalidLink();
    const passwordHash = await hashPassword(password);
    const now = this.deps.clock.now();
    const { token: cookie, row } = this.newSession(0, now, client);
    const { userId: _, ...session } = row;
    const user = await this.deps.users.acceptLink({
      tokenHash: hashToken(token),
      nowIso: isoTime(now),
      passwordHash,
      session,
    });
    if (!user) throw invalidLink();
    return { token: cookie, session: this.signedIn(user, { ...row, userId: user.id }) };
  }

  // ---- signing in and out --------------------------------------------------------------------

  async signIn(rawEmail: string, password: string, client: ClientInfo): Promise<SignInResult> {
    const now = this.deps.clock.now();
    const address = client.address.slice(0, ADDRESS_MAX);
    const addressWait = this.addresses.retryAfterMs(address, now);
    if (addressWait > 0) return throttled(addressWait);
    // Charged before any await and given back on success: a burst of concurrent attempts from one
    // address is counted as it arrives, not after the hashes (found by the hostile test).
    this.addresses.fail(address, now);
    const email = normaliseEmail(rawEmail);
    // Not worth a hash; still a failure of the address (guessing costs attempts either way).
    if (email === null || !plausiblePassword(password)) return { ok: false, reason: 'invalid' };
    const user = await this.deps.users.findByEmail(email);
    // The user's attempt is charged before the hash too, in one statement: at most `maxFailures`
    // guesses are ever checked per lock, however many arrive at once, on however many instances.
    const hash = user !== null && user.disabledAt === null ? user.passwordHash : null;
    const mayCheck =
      user !== null &&
      hash !== null &&
      (await this.deps.users.chargeSignIn(
        user.id,
        this.userThrottle.maxFailures,
        isoTime(now),
        isoTime(now + this.userThrottle.lockMs),
      ));
    if (!mayCheck) await dummyVerify(password);
    if (!mayCheck || user === null || hash === null || !(await verifyPassword(password, hash))) {
      // Unknown, invited, disabled, locked or wrong: the same work and the same answer, never a 429
      // of the user's own (an unknown email never locks, so it would tell a guesser which emails
      // have users; decision 0021), and nothing remembered per unknown email.
      return { ok: false, reason: 'invalid' };
    }
    this.addresses.forgive(address, this.deps.clock.now());
    if (needsRehash(hash)) await this.deps.users.setPasswordHash(user.id, await hashPassword(password));
    const { token, row } = this.newSession(user.id, this.deps.clock.now(), client);
    await this.deps.sessions.open(row);
    return { ok: true, session: { token, session: this.signedIn(user, row) } };
  }

  async session(token: string): Promise<SignedIn | null> {
    if (!isTokenShaped(token)) return null;
    const idHash = hashToken(token);
    const found = await this.deps.sessions.find(idHash);
    if (!found) return null;
    const { session, user } = found;
    const now = this.deps.clock.now();
    // last_seen_at is written at most once a TOUCH_EVERY_MS, so it may be that much behind the last
    // request: the idle timeout counts from the latest time the request could have been.
    const idleEnd = Date.parse(session.lastSeenAt) + TOUCH_EVERY_MS + this.deps.pages.sessionIdleMs;
    if (Date.parse(session.expiresAt) <= now || idleEnd <= now) {
      await this.deps.sessions.delete(idHash);
      return null;
    }
    if (user.disabledAt !== null) return null;
    let row = session;
    if (now - Date.parse(session.lastSeenAt) >= TOUCH_EVERY_MS) {
      row = { ...session, lastSeenAt: isoTime(now) };
      await this.deps.sessions.touch(idHash, row.lastSeenAt);
    }
    return this.signedIn(user, row);
  }

  async signOut(token: string): Promise<void> {
    if (isTokenShaped(token)) await this.deps.sessions.delete(hashToken(token));
  }

  signOutEverywhere(userId: number): Promise<number> {
    return this.deps.sessions.deleteForUser(userId);
  }

  // ---- an owner's members --------------------------------------------------------------------

  async inviteMember(by: User, email: string, role: 'owner' | 'member'): Promise<IssuedLink> {
    const account = this.ownedAccount(by);
    if (role !== 'owner' && role !== 'member')
      throw invalidParameter('role', 'must be one of owner, member.');
    return this.issueInvite(requireEmail(email), account, role, by.email);
  }

  async removeMember(by: User, userId: number): Promise<void> {
    const account = this.ownedAccount(by);
    if (userId === by.id) throw new DomainError('conflict', 'You cannot remove yourself from the account.');
    const outcome = await this.deps.users.removeMember(account, userId);
    if (outcome === 'not_found') throw new DomainError('not_found', 'No such member of this account.');
    if (outcome === 'last_owner')
      throw new DomainError('conflict', 'The account must keep at least one active owner.');
  }

  // ---- housekeeping --------------------------------------------------------------------------

  async purgeExpired(): Promise<{ sessions: number; links: number }> {
    const now = this.deps.clock.now();
    const sessions = await this.deps.sessions.purgeExpired(
      isoTime(now),
      isoTime(now - this.deps.pages.sessionIdleMs),
    );
    const links = await this.deps.users.purgeLinks(isoTime(now));
    return { sessions, links };
  }

  // ---- helpers -------------------------------------------------------------------------------

  private roleFor(account: string | null, role: string): UserRole {
    if (!(USER_ROLES as readonly string[]).includes(role))
      throw invalidParameter('role', `must be one of ${USER_ROLES.join(', ')}.`);
    if (account === null && role !== 'operator')
      throw invalidParameter('role', "must be 'operator' for a user of no account.");
    if (account !== null && role === 'operator')
      throw invalidParameter('role', "'operator' belongs to no account: give no account for an operator.");
    return role as UserRole;
  }

  private async issueInvite(
    email: string,
    accountId: number | null,
    role: UserRole,
    rawInvitedBy: string,
  ): Promise<IssuedLink> {
    if (await this.deps.users.findByEmail(email))
      throw new DomainError('conflict', `User '${email}' already exists.`);
    const { token, link } = this.newLink('invite');
    const user = await this.deps.users.create({
      email,
      accountId,
      role,
      invitedBy: rawInvitedBy.trim().slice(0, INVITED_BY_MAX) || 'unknown',
      createdAt: link.createdAt,
      link,
    });
    if (!user) throw new DomainError('conflict', `User '${email}' already exists.`);
    return this.issued(user, 'invite', token, link.expiresAt);
  }

  private async existing(rawEmail: string): Promise<StoredUser> {
    const email = requireEmail(rawEmail);
    const user = await this.deps.users.findByEmail(email);
    if (!user) throw new DomainError('not_found', `User '${email}' does not exist.`);
    return user;
  }

  /** The account an owner manages; anyone else is refused as if there were nothing to manage. */
  private ownedAccount(by: User): number {
    if (by.role !== 'owner' || by.account === null || by.disabledAt !== null)
      throw new DomainError('not_found', "Only an account's owners manage its members.");
    return by.account.id;
  }

  private newLink(purpose: LinkPurpose) {
    const now = this.deps.clock.now();
    const token = newToken();
    return {
      token,
      link: {
        tokenHash: hashToken(token),
        purpose,
        createdAt: isoTime(now),
        expiresAt: isoTime(now + this.deps.pages.linkTtlMs),
      },
    };
  }

  private issued(user: StoredUser, purpose: LinkPurpose, token: string, expiresAt: string): IssuedLink {
    return { user: publicUser(user), purpose, url: linkUrl(this.deps.linkBase(), token), token, expiresAt };
  }

  private newSession(userId: number, now: number, client: ClientInfo): { token: string; row: SessionRow } {
    const token = newToken();
    return {
      token,
      row: {
        idHash: hashToken(token),
        userId,
        csrfToken: newToken(),
        createdAt: isoTime(now),
        lastSeenAt: isoTime(now),
        expiresAt: isoTime(now + this.deps.pages.sessionMaxMs),
        address: client.address.slice(0, ADDRESS_MAX) || null,
        userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      },
    };
  }

  private signedIn(user: StoredUser, row: SessionRow): SignedIn {
    const idle = Date.parse(row.lastSeenAt) + TOUCH_EVERY_MS + this.deps.pages.sessionIdleMs;
    return {
      user: publicUser(user),
      csrfToken: row.csrfToken,
      expiresAt: row.expiresAt,
      idleExpiresAt: isoTime(Math.min(idle, Date.parse(row.expiresAt))),
    };
  }
}

const throttled = (ms: number): SignInResult => ({
  ok: false,
  reason: 'throttled',
  retryAfterS: Math.max(1, Math.ceil(ms / 1000)),
});
