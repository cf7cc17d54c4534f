import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { type ListingRow, MAX_LISTING_ROWS } from '../core/operator/operator.ts';
import { withContainer } from './context.ts';
import { actorOf, actorOption, out, printOutcome } from './operator-io.ts';
import { CliError } from './output.ts';

export function listingsCommand(program: Command): void {
  const listings = program.command('listings').description("A vendor's live price feed.");
  actorOption(listings.command('put'))
    .argument('<vendor>', 'vendor slug')
    .argument('<file>', 'JSON (an array of rows, or {"rows": [...]}) or JSON Lines; - for standard input')
    .description(
      'Put live listings: rows {peptideSlug, vialMg, totalUsd, inStock, updatedAt?}; a live row replaces the ' +
        `baseline row of the same peptide and vial size and goes stale 72 h after updatedAt (default now). 1 to ${MAX_LISTING_ROWS} rows; all or nothing.`,
    )
    .action(async (vendor: string, file: string, o: { as?: string }) => {
      const rows = parseListingRows(await readInput(file));
      await withContainer(async ({ operator: op }) => {
        const r = await op.putListings(vendor, rows, actorOf(o));
        out(`put ${r.rows} listing${r.rows === 1 ? '' : 's'} for ${vendor}`);
        printOutcome(r);
      });
    });
}

async function readInput(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    if (!statSync(file).isFile()) throw new Error();
    return readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`cannot read '${file}': no such file`);
  }
}

const FIELDS = new Set(['peptideSlug', 'vialMg', 'totalUsd', 'inStock', 'updatedAt']);

/**
 * Rows from a whole JSON document (an array of rows, `{"rows": [...]}` as the operator API takes,
 * or a single row) or from JSON Lines (one row per line; blank lines and `#` comments skipped).
 * Checks shapes and types only; the values are validated by the core like any other write, which
 * names a bad row `rows[i]` (counting from 0, in file order).
 */
export function parseListingRows(text: string): ListingRow[] {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') throw new CliError('no listing rows in the input');
  let values: { value: unknown; where: string }[];
  let whole: unknown;
  let isWhole = true;
  try {
    whole = JSON.parse(body);
  } catch {
    isWhole = false;
  }
  if (isWhole) {
    const list = Array.isArray(whole)
      ? whole
      : isObject(whole) && Array.isArray(whole.rows)
        ? whole.rows
        : [whole];
    values = list.map((value: unknown, i: number) => ({ value, where: `rows[${i}]` }));
  } else {
    values = [];
    body.split(/\r?\n/).forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new CliError(`line ${i + 1}: not valid JSON`);
      }
      values.push({ value, where: `rows[${values.length}] (line ${i + 1})` });
    });
  }
  return values.map(({ value, where }) => toRow(value, where));
}

function toRow(v: unknown, where: string): ListingRow {
  if (!isObject(v)) throw new CliError(`${where}: a row must be a JSON object`);
  for (const k of Object.keys(v)) {
    if (!FIELDS.has(k)) throw new CliError(`${where}: '${k}' is not a known field`);
  }
  const need = (k: string, type: 'string' | 'number' | 'boolean') => {
    if (typeof v[k] !== type) throw new CliError(`${where}: ${k} must be a ${type}`);
  };
  need('peptideSlug', 'string');
  need('vialMg', 'number');
  need('totalUsd', 'number');
  need('inStock', 'boolean');
  if (v.updatedAt !== undefined) need('updatedAt', 'string');
  return {
    peptideSlug: v.peptideSlug as string,
    vialMg: v.vialMg as number,
    totalUsd: v.totalUsd as number,
    inStock: v.inStock as boolean,
    ...(v.updatedAt !== undefined ? { updatedAt: v.updatedAt as string } : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
