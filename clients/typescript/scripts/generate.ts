import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { loadConfig } from '../../../src/config/config.ts';
import { createContainer } from '../../../src/container.ts';
import { buildApp } from '../../../src/http/app.ts';

/** The client package's directory: generated files are written (and compared) relative to it. */
export const CLIENT_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The command that rewrites every generated file; named by the up-to-date check when it fails. */
export const REGENERATE_COMMAND = 'npm run openapi';

const DOCUMENTS = [
  { name: 'variant-a', url: '/v1/openapi.json' },
  { name: 'variant-b', url: '/api/v1/openapi.json' },
  { name: 'admin', url: '/admin/v1/openapi.json' },
] as const;

/**
 * The OpenAPI documents exactly as the service serves them, and the types generated from them:
 * the app is built in-process (the same builder as `serve`) on an in-memory SQLite database, and
 * the documents are read with `inject`, so no port is opened and nothing is fetched. Returns
 * file contents keyed by their path inside the client package.
 */
export async function generateFiles(): Promise<Map<string, string>> {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    // Any token of the required length: it only turns the operator API (and its document) on.
    PURERANK_ADMIN_TOKEN: 'openapi-generation-token-not-a-secret',
    PURERANK_SEED_DEMO: 'false',
  });
  const container = await createContainer(config, { limiter: 'memory' });
  const files = new Map<string, string>();
  try {
    const app = await buildApp(container, { logger: false });
    try {
      await app.ready();
      for (const d of DOCUMENTS) {
        const res = await app.inject({ method: 'GET', url: d.url });
        if (res.statusCode !== 200) throw new Error(`GET ${d.url} answered ${res.statusCode}`);
        const doc = JSON.parse(res.body) as OpenAPI3;
        files.set(join('openapi', `${d.name}.json`), `${JSON.stringify(doc, null, 2)}\n`);
        const types = astToString(await openapiTS(doc));
        files.set(
          join('src', 'generated', `${d.name}.ts`),
          `// Generated from openapi/${d.name}.json by \`${REGENERATE_COMMAND}\`; do not edit.\n\n${types}`,
        );
      }
    } finally {
      await app.close();
    }
  } finally {
    await container.close();
  }
  return files;
}
