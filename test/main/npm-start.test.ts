import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARALLEL_GC_NOTICE, SINGLE_THREADED_GC } from '../../src/main/gc-mode.ts';

const ROOT = resolve(import.meta.dirname, '../..');

interface Started {
  npm: ChildProcess;
  /** The service's own process (npm runs it through a shell). */
  servicePid: number;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs `npm start` the way a newcomer does, on a fresh SQLite file and a free port. */
function npmStart(): Promise<Started> {
  const dir = mkdtempSync(join(tmpdir(), 'purerank-npm-start-'));
  const npm = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: `sqlite:${join(dir, 'start.db')}`,
      PORT: '0',
      HOST: '127.0.0.1',
      PURERANK_SEED_DEMO: 'false',
      // Fastify's "Server listening" line carries the service's pid.
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // 'close', not 'exit': the output must be complete when the test reads it.
  const exited = new Promise<number | null>((done) => npm.once('close', (code) => done(code)));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start did not start the service:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      const pid = /"pid":(\d+)/.exec(out);
      if (listening && pid) {
        clearTimeout(timer);
        done({ npm, servicePid: Number(pid[1]), port: Number(listening[1]), output: () => out, exited });
      }
    };
    npm.stdout!.on('data', onData);
    npm.stderr!.on('data', onData);
    void exited.then((code) => fail(new Error(`npm start exited with ${code}:\n${out}`)));
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const accepts = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await sleep(50);
  }
  return cond();
}

/**
 * npm forwards SIGINT and SIGTERM to the process it spawned. That process must be the service
 * itself, not a shell that dies and leaves the service running without a parent (package.json's
 * start script execs node).
 */
describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the service when npm is sent %s',
    async (signal) => {
      const s = await npmStart();
      try {
        expect(await accepts(s.port)).toBe(true);
        // npm start runs the service with single-threaded garbage collection (decision 0026).
        const argv = readFileSync(`/proc/${s.servicePid}/cmdline`, 'utf8').split('\0');
        expect(argv.slice(1, argv.indexOf('serve'))).toContain(SINGLE_THREADED_GC);
        expect(s.output()).not.toContain(PARALLEL_GC_NOTICE);
        s.npm.kill(signal);
        // Before the fix, npm waited for ever after SIGINT (its shell ignored the signal).
        const code = await Promise.race([s.exited, sleep(15_000).then(() => 'npm did not exit')]);
        // The service shuts down gracefully (in-flight requests, rate-limit state) and npm
        // reports its clean exit.
        expect(await until(() => !alive(s.servicePid), 5_000)).toBe(true);
        expect(s.output()).toContain(`"signal":"${signal}","msg":"shutting down"`);
        expect(code).toBe(0);
        expect(await accepts(s.port)).toBe(false);
      } finally {
        if (alive(s.servicePid)) process.kill(s.servicePid, 'SIGKILL');
        if (s.npm.exitCode === null) s.npm.kill('SIGKILL');
      }
    },
    60_000,
  );
});
