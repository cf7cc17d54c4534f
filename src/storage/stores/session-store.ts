import type { Kysely } from 'kysely';
import type { SessionRow, SessionStore, StoredUser } from '../../core/users/ports.ts';
import type { Database } from '../schema.ts';
import { selectUsers, toStoredUser } from './user-row.ts';
import { sessionValues } from './user-store.ts';

/** Server-side sessions behind an opaque cookie (core/users/ports.ts): only the cookie's hash is stored. */
export class KyselySessionStore implements SessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async open(session: SessionRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('sessions').values(sessionValues(session)).execute();
      await trx
        .updateTable('users')
        .set({ failed_sign_ins: 0, locked_until: null, last_sign_in_at: session.createdAt })
        .where('id', '=', session.userId)
        .execute();
    });
  }

  async find(idHash: string): Promise<{ session: SessionRow; user: StoredUser } | null> {
    const s = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    if (!s) return null;
    const u = await selectUsers(this.db).where('u.id', '=', s.user_id).executeTakeFirst();
    if (!u) return null;
    return {
      session: {
        idHash: s.id_hash,
        userId: Number(s.user_id),
        csrfToken: s.csrf_token,
        createdAt: s.created_at,
        lastSeenAt: s.last_seen_at,
        expiresAt: s.expires_at,
        address: s.address,
        userAgent: s.user_agent,
      },
      user: toStoredUser(u),
    };
  }

  async touch(idHash: string, lastSeenIso: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: lastSeenIso })
      .where('id_hash', '=', idHash)
      // Never backwards (two requests of one session racing each other).
      .where('last_seen_at', '<', lastSeenIso)
      .execute();
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  async deleteForUser(userId: number): Promise<number> {
    const r = await this.db.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async purgeExpired(nowIso: string, idleCutoffIso: string): Promise<number> {
    const r = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', nowIso), eb('last_seen_at', '<=', idleCutoffIso)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
