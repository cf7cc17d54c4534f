import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const BIN = resolve(import.meta.dirname, '../../bin/purerank.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh SQLite database path for one CLI scenario. */
export const tempDatabase = (): string =>
  `sqlite:${join(mkdtempSync(join(tmpdir(), 'purerank-cli-')), 'cli.db')}`;

/** Runs the real CLI as a child process, the way an operator would. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** Starts `purerank serve` and resolves once it prints its address. */
export function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(out);
      if (m && /API reference/.test(out)) {
        clearTimeout(timer);
        // Give the remaining start-up lines (demo key) a moment to arrive.
        setTimeout(() => done({ child, base: m[1]!, output: () => out }), 100);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

export function stopServer(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => done(code));
    child.kill('SIGTERM');
  });
}
