import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
/** The launcher an operator runs: dist/ when it is fresh, else the source through tsx (decision 0002). */
export const BIN = join(ROOT, 'bin/purerank.js');

/** A running `node bin/purerank.js serve`: the real program, pages and threads included. */
export interface Service {
  child: ChildProcess;
  base: string;
  output(): string;
  /** The demo key the banner printed, if it printed one. */
  demoKey: string | null;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
}

/**
 * A working directory per test file, so what the service writes relative to it (the demo key in
 * ./data) stays out of the repository. Made when first used (a skipped suite makes none), removed
 * by cleanup().
 */
export function serviceDir(): { readonly cwd: string; cleanup(): void } {
  let made: string | null = null;
  return {
    get cwd() {
      if (made === null) {
        made = mkdtempSync(join(tmpdir(), 'purerank-faults-'));
        mkdirSync(join(made, 'data'));
      }
      return made;
    },
    cleanup: () => {
      if (made !== null) rmSync(made, { recursive: true, force: true });
      made = null;
    },
  };
}

/** Starts `node bin/purerank.js serve` on a free port and resolves once it prints its banner. */
export function startService(env: Record<string, string>, cwd: string): Promise<Service> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? -1)),
  );
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`server did not start:\n${out}`));
    }, 45_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && /Webhook delivery/.test(out)) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        const keep = (e: Buffer) => {
          out += e;
        };
        child.stdout!.on('data', keep);
        child.stderr!.on('data', keep);
        // The demo lines follow the address in the same write, or just after it.
        setTimeout(() => {
          const demoKey = /Demo API key \(enterprise plan\): (prk_live_\w{32})/.exec(out)?.[1] ?? null;
          done({ child, base: m[1]!, output: () => out, demoKey, exited });
        }, 100);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

/** Sends `signal` and waits for the process to end; resolves with its exit code or signal. */
export async function stopService(
  s: Service | null,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | string> {
  if (!s) return -1;
  if (s.child.exitCode !== null || s.child.signalCode !== null) return s.exited;
  s.child.kill(signal);
  return s.exited;
}
