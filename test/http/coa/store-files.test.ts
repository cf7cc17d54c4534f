import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../support/databases.ts';
import { type CoaFixture, coa, setupCoa, sha256 } from './fixtures.ts';
import { expectVerification } from './form.ts';

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name).slice(dir.length + 1))
    .sort();
}

const uploadsOf = async (f: CoaFixture, batch: string) => {
  const res = await f.admin('GET', '/batches/pending?limit=200');
  expect(res.statusCode).toBe(200);
  return res.json().data.find((b: { batchId: string }) => b.batchId === batch).uploads as {
    sha256: string;
    filePath: string | null;
  }[];
};

/**
 * COA_STORE_FILES: the SHA-256 and the extracted fields are always kept; the PDF itself only when
 * the operator turns it on, in COA_FILE_DIR (outside the database), under its SHA-256.
 */
describe.each(DIALECTS)('COA_STORE_FILES (%s)', (dialect) => {
  describe('off (the default)', () => {
    let f: CoaFixture;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'coa-files-off-'));
      f = await setupCoa(dialect, { fileDir: join(dir, 'files') });
    });
    afterAll(async () => {
      await f?.ctx.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('no file is written; the upload keeps its SHA-256 and no path', async () => {
      expect(f.ctx.container.config.coa.storeFiles).toBe(false);
      const file = await coa({ batch: 'KEEP-0' });
      expect(expectVerification(await f.upload({ file, peptide: 'bpc-157', vendor: 'aurora' })).status).toBe(
        'pending_review',
      );
      expect(filesUnder(dir)).toEqual([]);
      expect(await uploadsOf(f, 'KEEP-0')).toEqual([
        expect.objectContaining({ sha256: sha256(file), filePath: null }),
      ]);
    });
  });

  describe('on', () => {
    let f: CoaFixture;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'coa-files-on-'));
      f = await setupCoa(dialect, { storeFiles: true, fileDir: dir });
    });
    afterAll(async () => {
      await f?.ctx.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the PDF is kept under its SHA-256, byte for byte, once however often it is uploaded', async () => {
      const file = await coa({ batch: 'KEEP-1' });
      const hash = sha256(file);
      const rel = join(hash.slice(0, 2), `${hash}.pdf`);
      expect(expectVerification(await f.upload({ file, peptide: 'bpc-157', vendor: 'aurora' })).status).toBe(
        'pending_review',
      );
      expect(filesUnder(dir)).toEqual([rel]);
      expect(Buffer.compare(readFileSync(join(dir, rel)), Buffer.from(file))).toBe(0);
      expect(await uploadsOf(f, 'KEEP-1')).toEqual([
        expect.objectContaining({ sha256: hash, filePath: rel }),
      ]);

      // Again, with other fields, and from another account: still one file.
      expectVerification(await f.upload({ file, peptide: 'bpc-157', vendor: 'aurora', batch_id: 'KEEP-1' }));
      expectVerification(await f.upload({ file, peptide: 'bpc-157' }, await f.ctx.keyFor('enterprise')));
      expect(filesUnder(dir)).toEqual([rel]);
    });

    it('a refused upload writes nothing', async () => {
      const before = filesUnder(dir);
      const file = await coa({ batch: 'KEEP-2' });
      const res = await f.upload({ file, peptide: 'no-such-peptide', vendor: 'aurora' });
      expect(res.statusCode).toBe(400);
      expect(filesUnder(dir)).toEqual(before);
    });
  });
});
