import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.ts';

/**
 * Issue [8]: people who sign in (users, their one-time links, their sessions), keys that expire
 * after a roll's overlap, and usage per key, variant and hour. Additive only.
 *
 * Secrets are stored as SHA-256 hashes only: a session id, an invitation or reset token. A copy of
 * the database lets nobody sign in. Usage hours are epoch hours (ms / 3,600,000) so a range of a
 * key's hours is an integer index scan on both backends.
 */
export async function up(db: Kysely<unknown>, caps: DialectCapabilities): Promise<void> {
  const id = caps.autoIdType;
  const big = caps.bigIntType;

  await db.schema
    .createTable('users')
    .addColumn('id', id, (c) => (caps.name === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
    // Lower-cased and trimmed: one person, one row, whatever case they type.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    // Null for operators, who belong to no account.
    .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
    // 'owner' | 'member' | 'operator'.
    .addColumn('role', 'text', (c) => c.notNull())
    // scrypt, self-describing (`scrypt$N$r$p$salt$hash`); null until the invitation is accepted.
    .addColumn('password_hash', 'text')
    // Failed sign-ins since the last success, and until when sign-in is refused.
    .addColumn('failed_sign_ins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'text')
    .addColumn('invited_by', 'text')
    .execute();
  await db.schema.createIndex('users_account').on('users').column('account_id').execute();

  await db.schema
    .createTable('user_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // 'invite' | 'reset'.
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // Set when followed: a link works once.
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('user_links_user').on('user_links').column('user_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Sent in every form of the session's pages; a state change must carry it.
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    // Absolute expiry; the idle expiry is last_seen_at + the idle timeout.
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  // A roll: the old key keeps working until expires_at, then answers 401 like a revoked one.
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('rolled_to', 'text').execute();

  await db.schema
    .createTable('usage_hourly')
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    // 'a' | 'b'.
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('hour', big, (c) => c.notNull())
    // Counted requests (what the limiter counts: 304s refunded) and refusals with 429.
    .addColumn('requests', big, (c) => c.notNull().defaultTo(0))
    .addColumn('limited', big, (c) => c.notNull().defaultTo(0))
    // The last request of the hour (epoch ms): a key's "last used".
    .addColumn('last_at', big)
    .addPrimaryKeyConstraint('usage_hourly_pk', ['key_id', 'scope', 'hour'])
    .execute();
  await db.schema.createIndex('usage_hourly_hour').on('usage_hourly').column('hour').execute();
}
