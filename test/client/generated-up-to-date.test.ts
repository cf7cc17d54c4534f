import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIR, generateFiles, REGENERATE_COMMAND } from '../../clients/typescript/scripts/generate.ts';

/**
 * The committed OpenAPI documents and generated types are what the service serves today: a
 * route or schema change without a regeneration fails here (and so the build's tests).
 */
describe('typed client: generated files', () => {
  it('match the OpenAPI documents of the current service', async () => {
    const files = await generateFiles();
    expect(files.size).toBe(6);
    for (const [path, content] of files) {
      const committed = readFileSync(join(CLIENT_DIR, path), 'utf8');
      expect(
        committed === content,
        `clients/typescript/${path} is out of date with the service: run \`${REGENERATE_COMMAND}\` and commit the result`,
      ).toBe(true);
    }
    // And nothing stale is left beside them.
    const present = [
      ...readdirSync(join(CLIENT_DIR, 'openapi')).map((f) => join('openapi', f)),
      ...readdirSync(join(CLIENT_DIR, 'src', 'generated')).map((f) => join('src', 'generated', f)),
    ].sort();
    expect(present, `stale generated files: run \`${REGENERATE_COMMAND}\``).toEqual([...files.keys()].sort());
  });
});
