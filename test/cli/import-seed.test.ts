import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, parseDatabaseUrl } from '../../src/storage/open-store.ts';
import { runCli, tempDatabase } from './run-cli.ts';

const GOOD = [
  '{"type":"peptide","slug":"bpc-157","name":"BPC-157","category":"healing","molecularWeight":"1419.5 g/mol"}',
  '{"type":"vendor","slug":"alpha","name":"Alpha","location":"Canada","verified":true}',
  '',
  '# a comment line',
  '{"type":"override","vendorSlug":"alpha","field":"score","value":77,"reason":"test"}',
].join('\n');

async function vendorCount(url: string): Promise<number> {
  const store = await openStore(parseDatabaseUrl(url));
  try {
    return (await store.catalog.listVendors()).length;
  } finally {
    await store.close();
  }
}

describe('purerank import and seed', () => {
  it('imports a good file, idempotently', async () => {
    const env = { DATABASE_URL: tempDatabase() };
    const file = join(tmpdir(), `good-${process.pid}.jsonl`);
    writeFileSync(file, GOOD);
    const first = await runCli(['import', file], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('imported 5 lines: 1 peptide, 1 vendor, 1 override');
    expect((await runCli(['import', file], env)).code).toBe(0);
    expect(await vendorCount(env.DATABASE_URL)).toBe(1);
  });

  it('reports every bad line by number and writes nothing', async () => {
    const env = { DATABASE_URL: tempDatabase() };
    const bad = [
      '{"type":"vendor","slug":"alpha","name":"Alpha"}',
      '{"type":"vendor","slug":"Bad Slug","name":"B"}',
      'not json',
      '{"type":"batch","vendorSlug":"ghost","batchId":"X1","peptideSlug":"none","status":"pending","submittedAt":"2026-01-01T00:00:00.000Z"}',
    ].join('\n');
    const r = await runCli(['import', '-'], env, bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('line 2: vendor.slug');
    expect(r.stderr).toContain('line 3: not valid JSON');
    expect(r.stderr).toMatch(/line 4: batch: vendor 'ghost' does not exist/);
    expect(r.stderr).toMatch(/line 4: batch: peptide 'none' does not exist/);
    expect(r.stderr.trim().split('\n').at(-1)).toBe('purerank: 3 bad lines in -; nothing was imported');
    expect(await vendorCount(env.DATABASE_URL)).toBe(0);
  });

  it('says so when the file does not exist', async () => {
    const r = await runCli(['import', '/nonexistent/file.jsonl'], { DATABASE_URL: tempDatabase() });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("purerank: cannot read '/nonexistent/file.jsonl': no such file");
  });

  it('seeds demo and scale data, and migrate is then a no-op', async () => {
    const env = { DATABASE_URL: tempDatabase() };
    const demo = await runCli(['seed', 'demo'], env);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toMatch(/60 vendor/);
    const scale = await runCli(
      ['seed', 'scale', '--vendors', '20', '--batches', '300', '--peptides', '10'],
      env,
    );
    expect(scale.code).toBe(0);
    expect(scale.stdout).toMatch(/20 vendor.*300 batch/);
    expect((await runCli(['migrate'], env)).stdout.trim()).toBe('schema is up to date');
    const bad = await runCli(['seed', 'scale', '--vendors', '0'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('purerank: --vendors must be between 1 and 1000000, got 0');
  });
});
