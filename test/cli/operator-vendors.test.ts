import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/core/events/model.ts';
import type { OverrideEntry, VendorAdminView } from '../../src/core/operator/model.ts';
import { loadOperatorFixture, oneLine, withDatabase } from './operator-fixture.ts';
import { DIALECTS, runCli, suiteDatabase } from './run-cli.ts';

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/;

describe.concurrent.each(DIALECTS)('purerank vendors, overrides and events (%s)', (dialect) => {
  describe.sequential('on one database', () => {
    const db = suiteDatabase(dialect);
    const cli = (...args: string[]) => runCli(args, db.env);
    let before: VendorAdminView;

    beforeAll(async () => {
      await loadOperatorFixture(db.url);
    });

    it('shows a vendor, as text and JSON; an unknown vendor fails with one line', async () => {
      const text = await cli('vendors', 'show', 'alpha');
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^alpha \(Alpha\)/);
      expect(text.stdout).toMatch(/claimed by\s+owner-co/);
      expect(text.stdout).toMatch(/score\s+\d+ \((platinum|gold|silver|bronze)\)/);
      expect(text.stdout).toContain('overrides: none');

      const json = await cli('vendors', 'show', 'alpha', '--json');
      before = JSON.parse(json.stdout) as VendorAdminView;
      expect(before.score).toEqual(expect.any(Number));
      expect(before.pillars).not.toBeNull();
      expect(before.ownerAccount).toBe('owner-co');
      expect(text.stdout).toContain(`score         ${before.score} (`);

      const ghost = await cli('vendors', 'show', 'ghost');
      expect(ghost.code).toBe(1);
      expect(oneLine(ghost.stderr)).toBe("purerank: Vendor 'ghost' does not exist.");
      expect(ghost.stdout).toBe('');
    });

    it('sets, lists (who, when, why) and clears an override; score changes are printed and in the outbox', async () => {
      const prev = before.score!;
      const target = prev === 99 ? 98 : 99;
      const signed = (d: number) => (d >= 0 ? `+${d}` : String(d));
      const set = await cli(
        'overrides',
        'set',
        'alpha',
        'score',
        String(target),
        '--reason',
        'lab recheck',
        '--as',
        'alice',
      );
      expect(set.code, set.stderr).toBe(0);
      expect(set.stdout).toContain(`alpha: score overridden to ${target} by alice`);
      expect(set.stdout).toContain(`score alpha: ${prev} → ${target} (${signed(target - prev)})`);

      const listed = await cli('overrides', 'list');
      expect(listed.code).toBe(0);
      const [header, row] = listed.stdout.trim().split('\n');
      expect(header).toMatch(/^VENDOR\s+FIELD\s+VALUE\s+SET BY\s+SET AT\s+REASON$/);
      expect(row).toMatch(
        new RegExp(`^alpha\\s+score\\s+${target}\\s+alice\\s+${ISO.source}\\s+lab recheck$`),
      );

      const json = await cli('overrides', 'list', '--vendor', 'alpha', '--json');
      const entries = JSON.parse(json.stdout) as OverrideEntry[];
      expect(entries).toEqual([
        {
          vendorSlug: 'alpha',
          field: 'score',
          value: target,
          reason: 'lab recheck',
          setBy: 'alice',
          setAt: expect.stringMatching(ISO),
        },
      ]);

      const events = await cli('events', 'list', '--type', 'score.changed', '--vendor', 'alpha', '--json');
      expect(events.code, events.stderr).toBe(0);
      const changed = JSON.parse(events.stdout) as StoredEvent[];
      expect(changed.at(-1)).toMatchObject({
        type: 'score.changed',
        vendorSlug: 'alpha',
        data: { vendor_slug: 'alpha', previous_score: prev, new_score: target, delta: target - prev },
      });
      const text = await cli('events', 'list', '--vendor', 'alpha');
      expect(text.stdout).toMatch(/^SEQ\s+CREATED\s+TYPE\s+VENDOR\s+DATA$/m);
      expect(text.stdout).toMatch(new RegExp(`score\\.changed\\s+alpha\\s+\\{"previous_score":${prev}`));

      // Bad input: one line, non-zero, nothing changed.
      const tooBig = await cli('overrides', 'set', 'alpha', 'score', '101', '--reason', 'x');
      expect(tooBig.code).toBe(1);
      expect(oneLine(tooBig.stderr)).toBe('purerank: value must be between 0 and 100, got 101');
      const noReason = await cli('overrides', 'set', 'alpha', 'coa', '50');
      expect(noReason.code).not.toBe(0);
      expect(noReason.stderr).toContain("required option '--reason <text>'");
      expect(await withDatabase(db.url, (s) => s.operator.listOverrides())).toHaveLength(1);

      const cleared = await cli('overrides', 'clear', 'alpha', 'score', '--as', 'alice');
      expect(cleared.code, cleared.stderr).toBe(0);
      expect(cleared.stdout).toContain(`score alpha: ${target} → ${prev} (${signed(prev - target)})`);
      const again = await cli('overrides', 'clear', 'alpha', 'score');
      expect(again.code).toBe(1);
      expect(oneLine(again.stderr)).toBe("purerank: Vendor 'alpha' has no 'score' override.");
      expect((await cli('overrides', 'list')).stdout.trim()).toBe('no overrides');
    }, 120_000);

    it('verifies, flags, plans and claims a vendor; a no-op says unchanged; bad values change nothing', async () => {
      const verify = await cli('vendors', 'verify', 'beta', '--as', 'bob');
      expect(verify.code, verify.stderr).toBe(0);
      expect(verify.stdout).toMatch(new RegExp(`^beta: verified since ${ISO.source}\nno score changed\n$`));
      expect((await cli('vendors', 'verify', 'beta')).stdout).toMatch(/^beta: unchanged \(verified since /);
      expect((await cli('vendors', 'pending', 'beta', 'on')).stdout).toContain('beta: pending on');
      expect((await cli('vendors', 'plan', 'beta', 'premium')).stdout).toContain(
        'beta: listing plan premium',
      );
      expect((await cli('vendors', 'claim', 'beta', 'other-co')).stdout).toContain(
        'beta: claimed by other-co',
      );

      for (const [args, message] of [
        [['vendors', 'plan', 'beta', 'gold'], "purerank: plan must be one of free, premium, got 'gold'"],
        [['vendors', 'pending', 'beta', 'maybe'], "purerank: state must be one of on, off, got 'maybe'"],
        [['vendors', 'claim', 'beta', 'nobody'], "purerank: claim: account 'nobody' does not exist."],
        [['vendors', 'verify', 'ghost'], "purerank: Vendor 'ghost' does not exist."],
      ] as const) {
        const r = await cli(...args);
        expect(r.code, args.join(' ')).toBe(1);
        expect(oneLine(r.stderr)).toBe(message);
      }

      const shown = JSON.parse((await cli('vendors', 'show', 'beta', '--json')).stdout) as VendorAdminView;
      expect(shown).toMatchObject({
        verified: true,
        verifiedAt: expect.stringMatching(ISO),
        pending: true,
        listingPlan: 'premium',
        ownerAccount: 'other-co',
        score: null,
      });

      expect((await cli('vendors', 'unverify', 'beta')).stdout).toContain('beta: not verified');
      expect((await cli('vendors', 'unclaim', 'beta')).stdout).toContain(
        'beta: no longer claimed (was other-co)',
      );
      const after = await withDatabase(db.url, (s) => s.operator.vendor('beta', 10));
      expect(after).toMatchObject({ verified: false, verifiedAt: null, ownerAccount: null, pending: true });
    }, 120_000);
  });
});
