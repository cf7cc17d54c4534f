import { Command, CommanderError } from 'commander';
import { accountPlanCommand } from '../cli/account-plan.ts';
import { accountsCommand } from '../cli/accounts.ts';
import { batchesCommand } from '../cli/batches.ts';
import { coaCommand } from '../cli/coa.ts';
import { eventsCommand } from '../cli/events.ts';
import { importCommand } from '../cli/import-file.ts';
import { keysCommand } from '../cli/keys.ts';
import { listingsCommand } from '../cli/listings.ts';
import { migrateCommand } from '../cli/migrate.ts';
import { reportFailure } from '../cli/output.ts';
import { overridesCommand } from '../cli/overrides.ts';
import { reviewsCommand } from '../cli/reviews.ts';
import { scoresCommand } from '../cli/scores.ts';
import { seedCommand } from '../cli/seed.ts';
import { serveCommand } from '../cli/serve.ts';
import { usersCommand } from '../cli/users.ts';
import { vendorsCommand } from '../cli/vendors.ts';
import { workerCommand } from '../cli/worker.ts';

const program = new Command('purerank')
  .description(
    'PureRank: vendor rankings and batch verification. Configuration comes from the environment (README).',
  )
  .exitOverride();

serveCommand(program);
workerCommand(program);
migrateCommand(program);
importCommand(program);
seedCommand(program);
accountsCommand(program);
accountPlanCommand(program);
keysCommand(program);
usersCommand(program);
// Operator commands: the same use cases as the operator API (docs/operator-cli.md).
vendorsCommand(program);
overridesCommand(program);
reviewsCommand(program);
batchesCommand(program);
coaCommand(program);
listingsCommand(program);
scoresCommand(program);
eventsCommand(program);

// A reader that stops early (`purerank events list | head`) closes the pipe: end the output quietly,
// like other Unix tools, instead of an unhandled EPIPE with a stack trace. Writes commit before
// their outcome is printed, so nothing is lost.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
  process.exitCode = reportFailure(err, Boolean(process.env.DEBUG));
});

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    // Commander has already printed usage or the parse error; help and version exit 0.
    process.exitCode = err.exitCode;
  } else {
    process.exitCode = reportFailure(err, Boolean(process.env.DEBUG));
  }
}
