import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/storage/sqlite/checkpointer.ts';
import { DIALECTS } from '../support/databases.ts';
import { type FreshStore, openFreshStore, waitFor } from './support.ts';

/**
 * SQLite's WAL checkpoints on a thread of their own: what a commit on the main thread would
 * otherwise do every 1,000 pages (copy the WAL into the database file and sync it, milliseconds
 * to tens of milliseconds) happens there, without blocking the connection that writes.
 */
describe('background WAL checkpoints (sqlite)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("copies what the writer's WAL holds into the database file while the writer goes on", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'purerank-ckpt-'));
    dirs.push(dir);
    const path = join(dir, 'db.sqlite');
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    // The writer never checkpoints itself here: whatever is copied, the thread copied.
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table t (id integer primary key, body text)');
    const checkpointer = startCheckpointer(path, 20);
    try {
      const insert = writer.prepare('insert into t (body) values (?)');
      for (let i = 0; i < 200; i++) insert.run('x'.repeat(2000));
      expect(await waitFor(() => checkpointer.frames() > 0, 5_000)).not.toBeNull();
      // Everything written so far ends up copied (no frame left for the writer to checkpoint).
      expect(
        await waitFor(() => {
          const [r] = writer.pragma('wal_checkpoint(PASSIVE)') as { log: number; checkpointed: number }[];
          return r !== undefined && r.log === r.checkpointed;
        }, 5_000),
      ).not.toBeNull();
      // The writer keeps writing meanwhile, and reads what it wrote.
      for (let i = 0; i < 50; i++) insert.run('y');
      expect(writer.prepare('select count(*) from t').pluck().get()).toBe(250);
    } finally {
      await checkpointer.stop();
      writer.close();
    }
  });

  it('stops with the store, and a store without it still closes', async () => {
    let fresh: FreshStore | null = null;
    try {
      for (const dialect of DIALECTS) {
        fresh = await openFreshStore(dialect);
        fresh.store.checkpointInBackground();
        fresh.store.checkpointInBackground(); // once is enough: a second call starts nothing
        const started = Date.now();
        await fresh.close();
        expect(Date.now() - started).toBeLessThan(2_000);
        fresh = null;
      }
    } finally {
      await fresh?.close();
    }
  });
});
