import { beforeAll, describe, expect, it } from 'vitest';
import type { OperatorAction } from '../../src/core/operator/actions.ts';
import { loadOperatorFixture, oneLine, withDatabase } from './operator-fixture.ts';
import { DIALECTS, runCli, suiteDatabase } from './run-cli.ts';

/**
 * `batches reject --reason` and `overrides clear --reason`: optional, kept in the operator decision
 * log with `--as` and the time; a bad one is one line and changes nothing; without one the commands
 * work as before. `--as` takes an operator's email up to 254 characters.
 */
describe.concurrent.each(DIALECTS)('purerank decisions with reasons (%s)', (dialect) => {
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);
    const cli = (...args: string[]) => runCli(args, db.env);
    const log = (vendorSlug: string): Promise<OperatorAction[]> =>
      withDatabase(db.url, (s) => s.operator.actions({ vendorSlug, limit: 50 }));
    const pending = (): Promise<string[]> =>
      withDatabase(db.url, async (s) => (await s.operator.pendingBatches(10, 0)).items.map((b) => b.batchId));

    beforeAll(async () => {
      await loadOperatorFixture(db.url);
    });

    it('batches reject --reason: a blank or over-long reason is one line and rejects nothing', async () => {
      for (const reason of ['  ', 'r'.repeat(501)]) {
        const r = await cli('batches', 'reject', 'beta', 'P2', '--reason', reason);
        expect(r.code).toBe(1);
        expect(oneLine(r.stderr)).toBe('purerank: --reason must be 1 to 500 characters');
      }
      expect(await pending()).toContain('P2');
      expect(await log('beta')).toEqual([]);
    }, 60_000);

    it('batches reject --reason --as: the decision is kept with who, when and the trimmed reason', async () => {
      const started = new Date().toISOString();
      const r = await cli(
        'batches',
        'reject',
        'beta',
        'p2',
        '--reason',
        '  lab never issued it ',
        '--as',
        'alice',
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('rejected batch P2 of beta (bpc-157)');
      expect(await pending()).not.toContain('P2');
      const [entry, ...rest] = await log('beta');
      expect(rest).toEqual([]);
      expect(entry).toMatchObject({
        action: 'batch.rejected',
        actor: 'alice',
        subject: 'P2',
        reason: 'lab never issued it',
        details: { peptide: 'bpc-157' },
      });
      expect(entry!.at >= started).toBe(true);
    }, 60_000);

    it('overrides clear --reason, and without one as before; --as takes a 254-character email', async () => {
      const email = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(63)}.com`;
      const set = await cli('overrides', 'set', 'alpha', 'coa', '40', '--reason', 'audit', '--as', email);
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain(`alpha: coa overridden to 40 by ${email}`);
      const tooLongActor = await cli('overrides', 'clear', 'alpha', 'coa', '--as', `${email}x`);
      expect(tooLongActor.code).toBe(1);
      expect(oneLine(tooLongActor.stderr)).toMatch(
        /^purerank: --as must be 1 to 254 printable ASCII characters/,
      );
      const badReason = await cli('overrides', 'clear', 'alpha', 'coa', '--reason', 'r'.repeat(501));
      expect(oneLine(badReason.stderr)).toBe('purerank: --reason must be 1 to 500 characters');
      expect(await withDatabase(db.url, (s) => s.operator.listOverrides('alpha'))).toHaveLength(1);

      const cleared = await cli(
        'overrides',
        'clear',
        'alpha',
        'coa',
        '--reason',
        'audit closed',
        '--as',
        'bob',
      );
      expect(cleared.code, cleared.stderr).toBe(0);
      expect(cleared.stdout).toContain('alpha: coa override cleared by bob');
      // Without a reason, as before.
      expect(
        (await cli('overrides', 'set', 'alpha', 'purity', '10', '--reason', 'x', '--as', 'bob')).code,
      ).toBe(0);
      const plain = await cli('overrides', 'clear', 'alpha', 'purity', '--as', 'bob');
      expect(plain.code, plain.stderr).toBe(0);

      const entries = await log('alpha');
      expect(entries.map((a) => [a.action, a.subject, a.actor, a.reason])).toEqual([
        ['override.cleared', 'purity', 'bob', null],
        ['override.set', 'purity', 'bob', 'x'],
        ['override.cleared', 'coa', 'bob', 'audit closed'],
        ['override.set', 'coa', email, 'audit'],
      ]);
      expect(entries[2]!.details).toMatchObject({ cleared: { value: 40, reason: 'audit', setBy: email } });
    }, 120_000);
  });
});
