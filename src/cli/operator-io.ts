import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { ACTION_REASON_MAX } from '../core/operator/actions.ts';
import { ACTOR_MAX, isActor } from '../core/operator/actor.ts';
import type { WriteOutcome } from '../core/operator/model.ts';
import { CliError } from './output.ts';

/**
 * Shared pieces of the operator commands (vendors, overrides, reviews, batches, listings, scores,
 * events, accounts plan): who acts, option parsing with one-line reasons, and output.
 */

// ---- who acts ------------------------------------------------------------------------------

/** Adds `--as NAME` to a command whose writes record who made them. */
export function actorOption(cmd: Command): Command {
  return cmd.option(
    '--as <name>',
    'who does this (up to 254 characters: an email fits), kept with overrides, in score-history reasons and in the decision log (default: your OS user name, else "cli")',
  );
}

/** The operator named by `--as`, else the OS user name, else `cli`. */
export function actorOf(o: { as?: string }): string {
  if (o.as === undefined) return defaultActor();
  const name = o.as.trim();
  // The core's one rule (core/operator/actor.ts), as the operator API's `X-Operator` header.
  if (!isActor(name)) {
    throw new CliError(`--as must be 1 to ${ACTOR_MAX} printable ASCII characters, got '${o.as}'`);
  }
  return name;
}

function defaultActor(): string {
  try {
    const name = userInfo().username.trim();
    if (isActor(name)) return name;
  } catch {
    // No passwd entry (some containers): fall through.
  }
  return 'cli';
}

// ---- parsing ---------------------------------------------------------------------------------

/** A whole number in [min, max], or a one-line reason naming the option. */
export function wholeNumber(name: string, raw: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw.trim())) throw new CliError(`${name} must be a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new CliError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** A decimal number in [min, max]. */
export function decimal(name: string, raw: string, min: number, max: number): number {
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(raw.trim()))
    throw new CliError(`${name} must be a number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || n > max) throw new CliError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** `--reason`: trimmed, 1 to 500 characters (as the operator API's and the console's reasons). */
export function reasonText(raw: string): string {
  const reason = raw.trim();
  if (reason === '' || reason.length > ACTION_REASON_MAX) {
    throw new CliError(`--reason must be 1 to ${ACTION_REASON_MAX} characters`);
  }
  return reason;
}

/** One of a closed set of words. */
export function choice<T extends string>(name: string, raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new CliError(`${name} must be one of ${allowed.join(', ')}, got '${raw}'`);
  }
  return raw as T;
}

// ---- output ----------------------------------------------------------------------------------

export const out = (text: string): void => {
  process.stdout.write(`${text}\n`);
};

/** `--json`: one JSON document on stdout. */
export const printJson = (value: unknown): void => out(JSON.stringify(value, null, 2));

export const jsonOption = (cmd: Command): Command => cmd.option('--json', 'print JSON instead of a table');

/** Left-aligned columns separated by two spaces; the last column is not padded. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `key  value` lines with the keys padded to one width. */
export function keyValues(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** `-` for a missing value in a table. */
export const cell = (v: string | number | null | undefined): string =>
  v === null || v === undefined || v === '' ? '-' : String(v);

const MAX_CHANGE_LINES = 50;

/** One line per composite that moved (the events are in the outbox), at most 50 of them. */
export function scoreChangeLines(changes: WriteOutcome['scoreChanges']): string[] {
  if (changes.length === 0) return ['no score changed'];
  const lines = changes.slice(0, MAX_CHANGE_LINES).map((c) => {
    if (c.previous === null) return `score ${c.vendorSlug}: unscored → ${c.next}`;
    const d = c.next - c.previous;
    return `score ${c.vendorSlug}: ${c.previous} → ${c.next} (${d >= 0 ? '+' : ''}${d})`;
  });
  if (changes.length > MAX_CHANGE_LINES) {
    lines.push(`… and ${changes.length - MAX_CHANGE_LINES} more (purerank events list --type score.changed)`);
  }
  return lines;
}

export const printOutcome = (outcome: WriteOutcome): void => {
  for (const line of scoreChangeLines(outcome.scoreChanges)) out(line);
};
