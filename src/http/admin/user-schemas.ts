import { type Static, Type as T } from '@sinclair/typebox';
import { PLANS } from '../../core/accounts/model.ts';
import { EMAIL_MAX } from '../../core/users/emails.ts';
import { USER_ROLES } from '../../core/users/model.ts';

/*
 * The operator API's users (docs/operator-api.md, Users). camelCase like the rest of the API; no
 * internal ids: a user is named by their email. The email's shape is checked by the core
 * (core/users/emails.ts), so every caller gets the same rule and message.
 */

const Timestamp = T.String({ format: 'date-time', description: 'ISO 8601, UTC, milliseconds.' });
const NullableTimestamp = T.Union([Timestamp, T.Null()]);
const LiteralUnion = <V extends string>(values: readonly V[]) => T.Union(values.map((v) => T.Literal(v)));

/** Room for surrounding spaces, which the core trims; the address itself is at most 254 characters. */
const EmailInput = (description: string) =>
  T.String({
    minLength: 1,
    maxLength: EMAIL_MAX + 66,
    description: `${description} Trimmed and lower-cased.`,
  });

export const UserParams = T.Object({
  email: EmailInput("The user's email address (URL-encoded in the path)."),
});
export type UserParams = Static<typeof UserParams>;

export const ListUsersQuery = T.Object({
  account: T.Optional(
    T.String({ minLength: 1, maxLength: 100, description: "Only this account's users (its name)." }),
  ),
});
export type ListUsersQuery = Static<typeof ListUsersQuery>;

export const InviteUserBody = T.Object(
  {
    email: EmailInput('Who is invited.'),
    account: T.Unsafe<string | null>({
      type: ['string', 'null'],
      minLength: 1,
      maxLength: 100,
      description: 'The account they join (its name), or `null` for an operator.',
    }),
    role: T.Optional(
      T.Unsafe<(typeof USER_ROLES)[number]>({
        type: 'string',
        enum: [...USER_ROLES],
        description:
          '`owner` or `member` of the account (default `member`); `operator` with `account: null` (its default).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type InviteUserBody = Static<typeof InviteUserBody>;

const UserOut = T.Object({
  email: T.String(),
  role: LiteralUnion(USER_ROLES),
  account: T.Union([T.String(), T.Null()], { description: 'Its name; null for an operator.' }),
  plan: T.Union([LiteralUnion(PLANS), T.Null()], {
    description: "The account's plan; null for an operator.",
  }),
  state: LiteralUnion(['invited', 'active', 'disabled'] as const),
  createdAt: Timestamp,
  lastSignInAt: NullableTimestamp,
  disabledAt: NullableTimestamp,
  invitedBy: T.Union([T.String(), T.Null()], {
    description: 'The operator (`X-Operator`, CLI `--as`) or owner (their email) who invited them.',
  }),
});

export const AdminUser = T.Object(UserOut.properties, { $id: 'AdminUser', title: 'AdminUser' });
export const AdminUserList = T.Object(
  { data: T.Array(UserOut, { description: 'By email.' }) },
  { $id: 'AdminUserList', title: 'AdminUserList' },
);
export const AdminUserLink = T.Object(
  {
    user: UserOut,
    link: T.String({
      description:
        'The one-time link to give the user privately: it sets a password and signs in. Shown this once; only its hash is stored.',
    }),
    purpose: LiteralUnion(['invite', 'reset'] as const),
    expiresAt: T.String({ format: 'date-time', description: 'The link works until then (72 h by default).' }),
  },
  { $id: 'AdminUserLink', title: 'AdminUserLink' },
);
