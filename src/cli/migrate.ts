import type { Command } from 'commander';
import { loadConfig } from '../config/config.ts';
import { openStore, parseDatabaseUrl } from '../storage/open-store.ts';

export function migrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('Bring the database schema to the newest version (also done at start-up).')
    .action(async () => {
      const config = loadConfig();
      const store = await openStore(parseDatabaseUrl(config.databaseUrl), { migrate: false });
      try {
        const applied = await store.migrate();
        process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
      } finally {
        await store.close();
      }
    });
}
