import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const json = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

interface LockEntry {
  version: string;
  hasInstallScript?: boolean;
  engines?: { node?: string };
}

const lock = json('package-lock.json') as { packages: Record<string, LockEntry> };
const pkg = json('package.json') as {
  engines: { node: string };
  allowScripts: Record<string, boolean>;
};
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** What package.json promises about installing (README, "Install"). */
describe('install policy', () => {
  it('decides, for every locked package with an install script, whether it may run it', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, e]) => path !== '' && e.hasInstallScript)
      .map(([path]) => nameOf(path));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts) expect(pkg.allowScripts, name).toHaveProperty([name]);
    // Only the SQLite driver builds: esbuild works without its postinstall (tsx uses its JS API,
    // which runs the platform package's binary) and Scarf's is install telemetry.
    expect(Object.keys(pkg.allowScripts).filter((n) => pkg.allowScripts[n])).toEqual(['better-sqlite3']);
  });

  it('locks no package that declares it needs a newer Node than the one package.json supports', () => {
    const floor = pkg.engines.node.match(/^>=(\d+)/)![1]!;
    const tooNew = Object.entries(lock.packages)
      .filter(([, e]) => {
        const need = e.engines?.node?.match(/^>=\s*(\d+)/)?.[1];
        return need !== undefined && Number(need) > Number(floor);
      })
      .map(([path, e]) => `${nameOf(path)}@${e.version} (node ${e.engines!.node})`);
    expect(tooNew).toEqual([]);
  });

  // cookie 2 needs Node 22; package.json overrides light-my-request's cookie with 1.1, whose
  // stringifySetCookie takes the same object form. inject() is what light-my-request serves.
  it("keeps inject()'s cookies working with the overridden cookie package", async () => {
    const app = Fastify();
    app.get('/echo', async (req) => ({ cookie: req.headers.cookie ?? null }));
    const res = await app.inject({ url: '/echo', cookies: { a: 'b c', session: 'x' } });
    expect(res.json()).toEqual({ cookie: 'a=b%20c; session=x' });
    await app.close();
  });
});
