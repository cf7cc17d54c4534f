import { ConfigError } from '../config/config.ts';
import { DomainError } from '../core/errors.ts';

/** A failure the CLI reports as one line and a non-zero exit, never a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** One line on stderr, prefixed with the program name; the full error only with DEBUG set. */
export function reportFailure(err: unknown, debug: boolean): number {
  const known = err instanceof CliError || err instanceof DomainError || err instanceof ConfigError;
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`purerank: ${known ? message : `unexpected error: ${firstLine(message)}`}\n`);
  if (debug && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return err instanceof CliError ? err.exitCode : 1;
}

const firstLine = (s: string): string => s.split('\n')[0] ?? s;

/** Parses a positive whole-number option, or fails with a reason naming the option. */
export function positiveInt(name: string, raw: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(raw)) throw new CliError(`${name} must be a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < 1 || n > max) throw new CliError(`${name} must be between 1 and ${max}, got ${n}`);
  return n;
}
