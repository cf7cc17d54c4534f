import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLIENT_DIR, generateFiles } from './generate.ts';

// `npm run openapi`: rewrites clients/typescript/openapi/*.json and src/generated/*.ts.
for (const [path, content] of await generateFiles()) {
  const target = join(CLIENT_DIR, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  console.log(`wrote ${join('clients/typescript', path)}`);
}
