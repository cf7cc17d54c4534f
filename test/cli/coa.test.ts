import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { makeCoa, SAMPLE_FACTS, TEMPLATES } from '../support/coa/index.ts';
import { loadOperatorFixture } from './operator-fixture.ts';
import { DIALECTS, runCli, suiteDatabase } from './run-cli.ts';

/** Verifies a file as account `owner-co` would, through the service's own container. */
async function verify(url: string, file: Uint8Array, fields: { peptide: string; vendor?: string }) {
  const c = await createContainer(loadConfig({ DATABASE_URL: url, PURERANK_SEED_DEMO: 'false' }), {
    limiter: 'memory',
  });
  try {
    const account = await c.store.accounts.findByName('owner-co');
    return await c.coa.verify({
      accountId: account!.id,
      file,
      request: { peptide: fields.peptide, batchId: null, vendor: fields.vendor ?? null },
    });
  } finally {
    await c.close();
  }
}

describe.concurrent.each(DIALECTS)('purerank coa sample and the review queue (%s)', (dialect) => {
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);
    const cli = (...args: string[]) => runCli(args, db.env);
    const dir = mkdtempSync(join(tmpdir(), 'purerank-coa-cli-'));

    beforeAll(async () => {
      await loadOperatorFixture(db.url);
    });

    it('writes a CoA of the newest approved batch that the verifier finds verified', async () => {
      const out = join(dir, 'sample.pdf');
      const r = await cli('coa', 'sample', 'alpha', '--out', out);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('wrote');
      expect(r.stdout).toContain('batch A1 of alpha, BPC-157, 98.5%, Acme Labs');
      expect(r.stdout).toContain('-F peptide=bpc-157 -F vendor=alpha');
      const v = await verify(db.url, readFileSync(out), { peptide: 'bpc-157', vendor: 'alpha' });
      expect(v).toMatchObject({
        status: 'verified',
        peptideMatch: true,
        purityVerified: true,
        purityClaim: '98.5%',
      });
    });

    it('labs list shows the registry the verifier matches against', async () => {
      const r = await cli('labs', 'list');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/SLUG\s+NAME\s+TRUSTED\s+FLAGGED\s+VERIFY URL/);
      expect(r.stdout).toMatch(/acme-labs\s+Acme Labs\s+yes\s+no\s+-/);
      const json = JSON.parse((await cli('labs', 'list', '--json')).stdout);
      expect(json).toContainEqual({
        slug: 'acme-labs',
        name: 'Acme Labs',
        trusted: true,
        flagged: false,
        verifyUrl: null,
      });
    });

    it('refuses a batch that is not approved, and an unknown vendor, with a one-line reason', async () => {
      const pending = await cli('coa', 'sample', 'alpha', 'P1', '--out', join(dir, 'p1.pdf'));
      expect(pending.code).not.toBe(0);
      expect(pending.stderr.trim().split('\n')).toHaveLength(1);
      const unknown = await cli('coa', 'sample', 'nobody', '--out', join(dir, 'x.pdf'));
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('nobody');
    });

    it('batches pending shows what an upload stated and noted; approve decides it', async () => {
      const file = await makeCoa(TEMPLATES.meridian, {
        ...SAMPLE_FACTS,
        lab: 'Acme Labs',
        batch: 'UP-7',
        compound: 'BPC-157',
        purity: 99.1,
      });
      const v = await verify(db.url, file, { peptide: 'bpc-157', vendor: 'beta' });
      expect(v.status).toBe('pending_review');
      const list = await cli('batches', 'pending');
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/beta\s+UP-7\s+bpc-157/);
      expect(list.stdout).toContain(`beta UP-7: upload ${v.id} by owner-co`);
      expect(list.stdout).toContain('pending_review');
      expect(list.stdout).toContain('submission_queued');
      const json = JSON.parse((await cli('batches', 'pending', '--json')).stdout);
      const item = json.items.find((b: { batchId: string }) => b.batchId === 'UP-7');
      expect(item.uploads).toHaveLength(1);
      expect(item.uploads[0]).toMatchObject({
        verificationId: v.id,
        account: 'owner-co',
        status: 'pending_review',
      });
      expect(item.uploads[0].extracted).toMatchObject({ batch: 'UP-7', purity: 99.1 });
      const approve = await cli('batches', 'approve', 'beta', 'UP-7', '--as', 'alice');
      expect(approve.stderr).toBe('');
      expect(approve.code).toBe(0);
    });
  });
});
