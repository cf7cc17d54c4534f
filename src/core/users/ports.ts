import type { LinkPurpose, User, UserRole } from './model.ts';

/** A user as stored, with what sign-in needs and the pages never see. */
export interface StoredUser extends User {
  /** scrypt, self-describing; null until an invitation is accepted. */
  passwordHash: string | null;
  /** Failed sign-ins since the last success or lock. */
  failedSignIns: number;
  /** ISO 8601; sign-in is refused until then. */
  lockedUntil: string | null;
}

/** A one-time link as stored: only the SHA-256 of its token. */
export interface LinkRow {
  tokenHash: string;
  purpose: LinkPurpose;
  createdAt: string;
  expiresAt: string;
}

/** A session as stored: only the SHA-256 of the cookie's value. */
export interface SessionRow {
  idHash: string;
  userId: number;
  csrfToken: string;
  createdAt: string;
  lastSeenAt: string;
  /** Absolute expiry. */
  expiresAt: string;
  address: string | null;
  userAgent: string | null;
}

export type RemoveMemberOutcome = 'removed' | 'not_found' | 'last_owner';

/** Users and their one-time links (src/storage/stores/user-store.ts, both dialects). */
export interface UserStore {
  findByEmail(email: string): Promise<StoredUser | null>;
  findById(id: number): Promise<StoredUser | null>;
  /** By email; only the account's users when `accountId` is given. */
  list(filter?: { accountId?: number }): Promise<User[]>;
  /**
   * Inserts the user and its first link in ONE transaction. Null, and nothing written, when the
   * email is taken (also when a concurrent invitation took it first).
   */
  create(input: {
    email: string;
    accountId: number | null;
    role: UserRole;
    invitedBy: string;
    createdAt: string;
    link: LinkRow;
  }): Promise<StoredUser | null>;
  /** A new link of the user; the user's older unused links are deleted in the same transaction. */
  issueLink(userId: number, link: LinkRow): Promise<void>;
  /** The link (used or not, expired or not) and its user. */
  findLink(
    tokenHash: string,
  ): Promise<{ link: LinkRow & { usedAt: string | null }; user: StoredUser } | null>;
  /**
   * Follows a link, in ONE transaction: marks it used only if it is unused, unexpired at `nowIso`
   * and its user is not disabled (one conditional UPDATE, so of two concurrent follows one wins),
   * then sets the password, clears failed sign-ins and the lock, ends every session of the user and
   * opens `session`. Null, and nothing written, when the link does not qualify.
   */
  acceptLink(input: {
    tokenHash: string;
    nowIso: string;
    passwordHash: string;
    session: Omit<SessionRow, 'userId'>;
  }): Promise<StoredUser | null>;
  /**
   * Charges one sign-in attempt before the password is checked, in one statement, so concurrent
   * attempts (on any instance) cannot all slip past the lock: false when the user is locked now
   * (nothing counted). At `threshold` charged attempts in a row the counter restarts and the user is
   * locked until `lockUntilIso`; that attempt itself is still checked. An expired lock starts over.
   * A successful sign-in clears the count (SessionStore.open).
   */
  chargeSignIn(userId: number, threshold: number, nowIso: string, lockUntilIso: string): Promise<boolean>;
  /** Replaces a password hash (a rehash with today's parameters after a sign-in). */
  setPasswordHash(userId: number, passwordHash: string): Promise<void>;
  /**
   * Disables the user, deletes their sessions and unused links, in one transaction. Null when no
   * such user; the user unchanged when already disabled.
   */
  disable(userId: number, nowIso: string): Promise<StoredUser | null>;
  /**
   * Deletes a user of the account (their sessions and links go with them), unless they are the
   * account's last active owner. Under the account's row lock, so two owners removing each other at
   * once cannot both succeed.
   */
  removeMember(accountId: number, userId: number): Promise<RemoveMemberOutcome>;
  /** Deletes used links and links expired at `nowIso`; returns how many. */
  purgeLinks(nowIso: string): Promise<number>;
}

/** Sessions (src/storage/stores/session-store.ts, both dialects). */
export interface SessionStore {
  /** Opens a session and records the sign-in on its user (failures and lock cleared), in one transaction. */
  open(session: SessionRow): Promise<void>;
  find(idHash: string): Promise<{ session: SessionRow; user: StoredUser } | null>;
  touch(idHash: string, lastSeenIso: string): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Returns how many ended. */
  deleteForUser(userId: number): Promise<number>;
  /** Deletes sessions past their absolute expiry at `nowIso`, or last seen before `idleCutoffIso`. */
  purgeExpired(nowIso: string, idleCutoffIso: string): Promise<number>;
}
