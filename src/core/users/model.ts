import type { Plan } from '../accounts/model.ts';

/**
 * People who sign in to the pages (issue [8], DESIGN.md §6). Account members are `owner` or
 * `member` of exactly one account; operators belong to no account and use the console.
 */
export const USER_ROLES = ['owner', 'member', 'operator'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const MEMBER_ROLES = ['owner', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export interface User {
  id: number;
  /** Lower-cased and trimmed. */
  email: string;
  role: UserRole;
  /** Null for operators. */
  account: { id: number; name: string; plan: Plan } | null;
  /** False until an invitation is accepted. */
  hasPassword: boolean;
  disabledAt: string | null;
  createdAt: string;
  lastSignInAt: string | null;
  /** Who invited them: an operator's name (CLI `--as`, API `X-Operator`) or an owner's email. */
  invitedBy: string | null;
}

/** A one-time link, printed by the CLI or shown to an owner (no mail server is assumed). */
export type LinkPurpose = 'invite' | 'reset';

export interface IssuedLink {
  user: User;
  purpose: LinkPurpose;
  /** The full URL to follow (PURERANK_PUBLIC_URL, else http://localhost:PORT; links.ts). */
  url: string;
  /** The token the URL ends with (for a URL on another base: `linkUrl(base, token)`). Never stored. */
  token: string;
  expiresAt: string;
}

/** A signed-in request: who, and the token its forms must carry. */
export interface SignedIn {
  user: User;
  /** The session's anti-forgery token (compared in constant time by the pages). */
  csrfToken: string;
  /** When the session ends at the latest, and when it ends if unused. */
  expiresAt: string;
  idleExpiresAt: string;
}

/** What the cookie carries (opaque, random, stored only hashed) and the session it opened. */
export interface NewSession {
  /** The cookie's value. Never stored, never logged. */
  token: string;
  session: SignedIn;
}

export type SignInResult =
  | { ok: true; session: NewSession }
  /** Wrong email or password, or a disabled user: the same answer, so nobody learns which. */
  | { ok: false; reason: 'invalid' }
  /** Too many failures for this user or from this address. */
  | { ok: false; reason: 'throttled'; retryAfterS: number };

/** Where a sign-in or a request comes from, for the throttle and the session list. */
export interface ClientInfo {
  address: string;
  userAgent: string | null;
}

/**
 * The identity use cases, as the pages, the CLI and the operator API see them. Errors are
 * DomainErrors (`invalid_parameter` naming the field, `not_found`, `conflict`).
 */
export interface IdentityService {
  /** Invites to an account (role owner or member), or an operator when `account` is null. */
  invite(input: {
    email: string;
    account: string | null;
    role: UserRole;
    invitedBy: string;
  }): Promise<IssuedLink>;
  /** A reset link for an existing user; any earlier unused link of the user stops working. */
  reset(email: string): Promise<IssuedLink>;
  /** By email. `account` is a name (an unknown one is `invalid_parameter` naming `account`). */
  list(filter?: { accountId?: number; account?: string }): Promise<User[]>;
  /** Disables the user and ends every session of theirs at once. */
  disable(email: string): Promise<User>;
  /** The link's user and purpose while it is valid and unused, else null (for the page that follows it). */
  inspectLink(token: string): Promise<{ user: User; purpose: LinkPurpose; expiresAt: string } | null>;
  /** Sets the password (at least 12 characters), uses up the link, ends older sessions, signs in. */
  followLink(token: string, password: string, client: ClientInfo): Promise<NewSession>;
  signIn(email: string, password: string, client: ClientInfo): Promise<SignInResult>;
  /** The session behind a cookie value, or null (unknown, expired, idle too long, user disabled). */
  session(token: string): Promise<SignedIn | null>;
  signOut(token: string): Promise<void>;
  /** Ends every session of the user (this one included). */
  signOutEverywhere(userId: number): Promise<number>;
  /** Owners' member management: another account's user is not_found. */
  inviteMember(by: User, email: string, role: 'owner' | 'member'): Promise<IssuedLink>;
  removeMember(by: User, userId: number): Promise<void>;
  /** Deletes expired sessions and used or expired links (serve calls it periodically). */
  purgeExpired(): Promise<{ sessions: number; links: number }>;
}
