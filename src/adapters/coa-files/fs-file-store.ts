import { randomBytes } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CoaFileStore } from '../../core/coa/verify-coa.ts';

/**
 * Uploaded PDFs on disk (COA_STORE_FILES), named by SHA-256 under two-character fan-out
 * directories, outside the database. Written to a temporary name and renamed, so a reader never
 * sees half a file; a file already there is the same bytes and is not written again.
 */
export class FsCoaFileStore implements CoaFileStore {
  constructor(private readonly dir: string) {}

  async put(sha256: string, bytes: Uint8Array): Promise<string> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('not a SHA-256');
    const rel = join(sha256.slice(0, 2), `${sha256}.pdf`);
    const path = join(this.dir, rel);
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await mkdir(join(this.dir, sha256.slice(0, 2)), { recursive: true });
      const tmp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, path);
    }
    return rel;
  }
}
