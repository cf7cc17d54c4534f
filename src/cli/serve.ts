import type { Command } from 'commander';
import { loadConfig } from '../config/config.ts';
import { lowerHelperThreads } from '../main/helper-threads.ts';
import { positiveInt } from './output.ts';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the HTTP service (migrates first; seeds demo data into an empty SQLite database).')
    .option('--port <port>', 'TCP port (env PORT, default 3000)')
    .option('--host <host>', 'interface to bind (env HOST, default 127.0.0.1)')
    .option(
      '--workers <n>',
      'processes on this host sharing the port (node:cluster); more than 1 needs REDIS_URL (default 1)',
    )
    .action(async (o: { port?: string; host?: string; workers?: string }) => {
      // First, before the service starts a thread of its own (helper-threads.ts). Here rather than
      // in startServer: it cannot be undone, and tests start servers inside their own processes.
      lowerHelperThreads();
      const config = loadConfig(process.env, {
        ...(o.port ? { port: positiveInt('--port', o.port, 65_535) } : {}),
        ...(o.host ? { host: o.host } : {}),
      });
      const workers = o.workers ? positiveInt('--workers', o.workers, 64) : 1;
      if (workers > 1) {
        const { runCluster } = await import('../main/cluster.ts');
        await runCluster(config, workers);
        return;
      }
      // Loaded here, not at the top: other commands should not pay for the HTTP stack at start-up.
      const { startServer, stopOnSignals } = await import('../main/server.ts');
      const server = await startServer(config);
      // Signals are handled before the banner says the service is up: whoever reads the banner
      // (a person, a supervisor, the npm-start test) and stops the service gets a graceful stop.
      stopOnSignals(server);
      process.stdout.write(`${server.banner.join('\n')}\n`);
    });
}
