import type { Command } from 'commander';
import { loadConfig } from '../config/config.ts';
import { positiveInt } from './output.ts';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the HTTP service (migrates first; seeds demo data into an empty SQLite database).')
    .option('--port <port>', 'TCP port (env PORT, default 3000)')
    .option('--host <host>', 'interface to bind (env HOST, default 127.0.0.1)')
    .action(async (o: { port?: string; host?: string }) => {
      const config = loadConfig(process.env, {
        ...(o.port ? { port: positiveInt('--port', o.port, 65_535) } : {}),
        ...(o.host ? { host: o.host } : {}),
      });
      // Loaded here, not at the top: other commands should not pay for the HTTP stack at start-up.
      const [
        { createContainer },
        { buildApp },
        { prepareDemo },
        { pinTickObjectShape },
        { limitHeapGrowth },
      ] = await Promise.all([
        import('../container.ts'),
        import('../http/app.ts'),
        import('./demo-key.ts'),
        import('../http/tick-shape.ts'),
        import('./heap-growth.ts'),
      ]);
      limitHeapGrowth(config.heapGrowthPercent);
      // A process-wide V8 detail that costs a fifth of a cached read's throughput (decision 0014).
      await pinTickObjectShape();
      const container = await createContainer(config);
      const demo = config.seedDemoWhenEmpty ? await prepareDemo(container) : { seeded: false, key: null };
      const app = await buildApp(container, { logger: { level: config.logLevel } });
      await app.listen({ port: config.port, host: config.host });
      const addr = app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : config.port;
      const base = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
      const lines = [
        `PureRank is listening on ${base} (${container.store.dialect}${config.redisUrl ? ', Redis rate limits' : ''})`,
        `API reference: ${base}/docs`,
      ];
      if (demo.seeded) lines.push('Loaded the demo dataset into the empty database.');
      if (demo.key) {
        lines.push(`Demo API key (enterprise plan): ${demo.key}`);
        lines.push(`Try: curl -H 'Authorization: Bearer ${demo.key}' ${base}/api/v1/vendors?limit=3`);
      }
      process.stdout.write(`${lines.join('\n')}\n`);

      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        app.log.info({ signal }, 'shutting down');
        // Stop accepting, let in-flight requests finish, then flush rate-limit state and close the store.
        const force = setTimeout(() => process.exit(1), 10_000);
        force.unref();
        await app.close();
        await container.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
    });
}
