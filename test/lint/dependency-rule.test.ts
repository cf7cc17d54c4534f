import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIOME = join(ROOT, 'node_modules', '.bin', 'biome');

/** [file, import specifier, forbidden?]: files are placed where the layer's files live. */
const CASES: [string, string, boolean][] = [
  // The core: no framework, driver, network or file module; no outer layer.
  ['src/core/vendors/probe.ts', 'fastify', true],
  ['src/core/vendors/probe.ts', '@fastify/type-provider-typebox', true],
  ['src/core/vendors/probe.ts', 'kysely', true],
  ['src/core/vendors/probe.ts', 'kysely/helpers/postgres', true],
  ['src/core/vendors/probe.ts', 'pg', true],
  ['src/core/vendors/probe.ts', 'better-sqlite3', true],
  ['src/core/vendors/probe.ts', 'ioredis', true],
  ['src/core/vendors/probe.ts', 'commander', true],
  ['src/core/vendors/probe.ts', 'node:http', true],
  ['src/core/vendors/probe.ts', 'node:fs', true],
  ['src/core/vendors/probe.ts', '../../http/app.ts', true],
  ['src/core/vendors/probe.ts', '../../storage/open-store.ts', true],
  ['src/core/vendors/probe.ts', '../../adapters/search/catalog-term-index.ts', true],
  ['src/core/vendors/probe.ts', '../../cli/context.ts', true],
  ['src/core/vendors/probe.ts', '../../main/server.ts', true],
  // src/worker/ is the home of background jobs (docs/ARCHITECTURE.md, "where does X go").
  ['src/core/vendors/probe.ts', '../../worker/deliver-webhooks.ts', true],
  ['src/storage/stores/probe.ts', '../../worker/deliver-webhooks.ts', true],
  ['src/http/probe.ts', '../worker/deliver-webhooks.ts', true],
  ['src/core/vendors/probe.ts', '../../seed/seed-demo.ts', true],
  ['src/core/vendors/probe.ts', '../../config/config.ts', true],
  ['src/core/vendors/probe.ts', '../../container.ts', true],
  ['src/core/probe.ts', '../container.ts', true],
  // What the core may use: its own modules, TypeBox (its schema language) and node:crypto.
  ['src/core/vendors/probe.ts', '../errors.ts', false],
  ['src/core/vendors/probe.ts', './model.ts', false],
  ['src/core/vendors/probe.ts', '@sinclair/typebox', false],
  ['src/core/vendors/probe.ts', '@sinclair/typebox/value', false],
  ['src/core/vendors/probe.ts', 'node:crypto', false],
  // Storage and adapters implement ports: no HTTP, CLI or entry points.
  ['src/storage/stores/probe.ts', 'fastify', true],
  ['src/storage/stores/probe.ts', '../../http/errors.ts', true],
  ['src/adapters/ratelimit/probe.ts', '../../cli/output.ts', true],
  ['src/adapters/ratelimit/probe.ts', '../../container.ts', true],
  ['src/storage/stores/probe.ts', 'kysely', false],
  ['src/storage/stores/probe.ts', '../../core/ports.ts', false],
  ['src/adapters/ratelimit/probe.ts', 'ioredis', false],
  // HTTP is handed its services; it opens no store or client.
  ['src/http/admin/probe.ts', 'kysely', true],
  ['src/http/admin/probe.ts', 'ioredis', true],
  ['src/http/probe.ts', '../storage/open-store.ts', true],
  ['src/http/probe.ts', '../container.ts', true],
  ['src/http/probe.ts', 'fastify', false],
  ['src/http/probe.ts', '../core/errors.ts', false],
];

interface Diagnostic {
  category: string;
  location: { path: string };
}

/**
 * The dependency rule (docs/ARCHITECTURE.md) is enforced by `npm run lint` through Biome's
 * noRestrictedImports in biome.json. This runs the project's Biome with the project's biome.json
 * over probe files laid out like the source tree, so a rule that stops firing (a renamed folder, a
 * pattern Biome no longer matches) fails here, not silently.
 */
describe('dependency rule (biome.json)', () => {
  let dir: string;
  const flagged = new Map<string, number>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'purerank-deps-'));
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    CASES.forEach(([file, spec], i) => {
      const path = join(dir, file.replace(/probe\.ts$/, `probe${i}.ts`));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `import { a } from '${spec}';\nexport const b = a;\n`);
    });
    // Exits 1 when it finds errors, which is the point; the JSON report is on stdout either way.
    const run = promisify(execFile)(
      BIOME,
      ['lint', '--reporter=json', '--only=style/noRestrictedImports', '.'],
      {
        cwd: dir,
      },
    ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse((await run).stdout) as { diagnostics: Diagnostic[] };
    for (const d of report.diagnostics) {
      if (d.category !== 'lint/style/noRestrictedImports') continue;
      flagged.set(d.location.path, (flagged.get(d.location.path) ?? 0) + 1);
    }
  }, 30_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(CASES.map(([file, spec, forbidden], i) => ({ file, spec, forbidden, i })))(
    '$file importing $spec: forbidden $forbidden',
    ({ file, forbidden, i }) => {
      const probe = file.replace(/probe\.ts$/, `probe${i}.ts`);
      expect(flagged.get(probe) ?? 0).toBe(forbidden ? 1 : 0);
    },
  );
});
