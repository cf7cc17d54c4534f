import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dumpTables } from '../storage/support.ts';
import { withDatabase } from './operator-fixture.ts';
import { DIALECTS, freshDatabases, runCli, suiteDatabase } from './run-cli.ts';

const GOOD = [
  '{"type":"peptide","slug":"bpc-157","name":"BPC-157","category":"healing","molecularWeight":"1419.5 g/mol"}',
  '{"type":"vendor","slug":"alpha","name":"Alpha","location":"Canada","verified":true}',
  '',
  '# a comment line',
  '{"type":"override","vendorSlug":"alpha","field":"score","value":77,"reason":"test"}',
].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'purerank-cli-import-'));
const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

const vendorNames = (url: string): Promise<Record<string, string>> =>
  withDatabase(url, async (store) =>
    Object.fromEntries(
      (await store.kysely.selectFrom('vendors').select(['slug', 'name']).execute()).map((v) => [
        v.slug,
        v.name,
      ]),
    ),
  );
const dump = (url: string) => withDatabase(url, (store) => dumpTables(store.kysely));

describe.concurrent.each(DIALECTS)('purerank import and seed (%s)', (dialect) => {
  // The two dialects run side by side; within one, the tests run in order on one database.
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);
    const fresh = freshDatabases(dialect);

    it('imports a good file, idempotently, from a file and from standard input', async () => {
      const file = join(dir, `good-${dialect}.jsonl`);
      writeFileSync(file, GOOD);
      const first = await runCli(['import', file], db.env);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('imported 5 lines: 1 peptide, 1 vendor, 1 override');
      const before = await dump(db.url);
      const again = await runCli(['import', '-'], db.env, GOOD);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('imported 5 lines: 1 peptide, 1 vendor, 1 override');
      expect(await vendorNames(db.url)).toEqual({ alpha: 'Alpha' });
      // The second import appends no score history: nothing changed.
      expect((await dump(db.url)).score_history).toEqual(before.score_history);
    });

    it('reports every bad line by number and writes nothing', async () => {
      const before = await dump(db.url);
      const bad = [
        '{"type":"vendor","slug":"beta","name":"Beta"}',
        '{"type":"vendor","slug":"Bad Slug","name":"B"}',
        'not json',
        '{"type":"batch","vendorSlug":"ghost","batchId":"X1","peptideSlug":"none","status":"pending","submittedAt":"2026-01-01T00:00:00.000Z"}',
      ].join('\n');
      const r = await runCli(['import', '-'], db.env, bad);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('line 2: vendor.slug');
      expect(r.stderr).toContain('line 3: not valid JSON');
      expect(r.stderr).toMatch(/line 4: batch: vendor 'ghost' does not exist/);
      expect(r.stderr).toMatch(/line 4: batch: peptide 'none' does not exist/);
      // Line 4 breaks two rules: the lines and the errors are counted apart.
      expect(r.stderr.trim().split('\n').at(-1)).toBe(
        'purerank: 3 bad lines (4 errors) in -; nothing was imported',
      );
      expect(await dump(db.url)).toEqual(before);
    });

    it('refuses bytes that are not UTF-8 and control characters, by line, from a file or stdin; writes nothing', async () => {
      const before = await dump(db.url);
      const prefix = '{"type":"vendor","slug":"mojibake","name":"Bad ';
      const data = bytes(
        '{"type":"vendor","slug":"gamma","name":"Gamma"}\n',
        prefix,
        [0xff, 0xfe, 0xc3],
        ' name"}\n',
        '{"type":"vendor","slug":"bell","name":"Ding\\u0007"}\n',
      );
      const file = join(dir, `bad-utf8-${dialect}.jsonl`);
      writeFileSync(file, data);
      const expected = [
        `line 2: not valid UTF-8: byte 0xFF at byte ${prefix.length + 1} of the line`,
        'line 3: vendor.name: contains a control character (U+0007) at character 5',
      ];
      for (const [args, input] of [
        [['import', file], undefined],
        [['import', '-'], data],
      ] as const) {
        const r = await runCli([...args], db.env, input);
        expect(r.code, r.stderr).toBe(1);
        const lines = r.stderr.trim().split('\n');
        expect(lines.slice(0, 2)).toEqual(expected);
        expect(lines.at(-1)).toMatch(/^purerank: 2 bad lines in .*; nothing was imported$/);
      }
      expect(await dump(db.url)).toEqual(before);
    });

    it('reads a multi-byte character split across two reads of standard input', async () => {
      const line = bytes('{"type":"vendor","slug":"cafe","name":"Café 🧪 Lab"}\r\n');
      const at = line.indexOf(0xf0) + 2; // inside the 4-byte 🧪
      const r = await runCli(['import', '-'], db.env, undefined, {
        chunks: [line.subarray(0, at), line.subarray(at)],
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('imported 1 lines: 1 vendor');
      expect((await vendorNames(db.url)).cafe).toBe('Café 🧪 Lab');
    });

    it('says so when the file does not exist', async () => {
      const r = await runCli(['import', '/nonexistent/file.jsonl'], db.env);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe("purerank: cannot read '/nonexistent/file.jsonl': no such file");
    });

    it('seeds demo and scale data, and migrate is then a no-op', async () => {
      const env = { DATABASE_URL: await fresh() };
      const demo = await runCli(['seed', 'demo'], env);
      expect(demo.code, demo.stderr).toBe(0);
      expect(demo.stdout).toMatch(/60 vendor/);
      const scale = await runCli(
        ['seed', 'scale', '--vendors', '20', '--batches', '300', '--peptides', '10'],
        env,
      );
      expect(scale.code, scale.stderr).toBe(0);
      expect(scale.stdout).toMatch(/20 vendor.*300 batch/);
      expect((await runCli(['migrate'], env)).stdout.trim()).toBe('schema is up to date');
      const bad = await runCli(['seed', 'scale', '--vendors', '0'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim()).toBe('purerank: --vendors must be between 1 and 1000000, got 0');
    }, 90_000);
  });
});
