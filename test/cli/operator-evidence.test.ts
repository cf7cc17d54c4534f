import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/core/events/model.ts';
import type { BatchAdminView } from '../../src/core/operator/model.ts';
import { loadOperatorFixture, oneLine, withDatabase } from './operator-fixture.ts';
import { DIALECTS, runCli, suiteDatabase } from './run-cli.ts';

const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString();

async function liveListings(url: string): Promise<{ peptide: string; usd: number }[]> {
  return withDatabase(url, async (s) =>
    (
      await s.kysely
        .selectFrom('prices as p')
        .innerJoin('peptides as pe', 'pe.id', 'p.peptide_id')
        .select(['pe.slug as peptide', 'p.total_usd as usd'])
        .where('p.source', '=', 'live')
        .orderBy('pe.slug')
        .execute()
    ).map((r) => ({ peptide: r.peptide, usd: Number(r.usd) })),
  );
}

describe.concurrent.each(DIALECTS)(
  'purerank reviews, batches, listings, scores, events and account plans (%s)',
  (dialect) => {
    describe.sequential('on one database', () => {
      const db = suiteDatabase(dialect);
      const cli = (...args: string[]) => runCli(args, db.env);

      beforeAll(async () => {
        await loadOperatorFixture(db.url);
      });

      it('--help lists the operator commands', async () => {
        const r = await cli('--help');
        expect(r.code).toBe(0);
        for (const c of ['vendors', 'overrides', 'reviews', 'batches', 'listings', 'scores', 'events']) {
          expect(r.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
        }
      });

      it('adds a review and a reply by the owning account only', async () => {
        const add = await cli(
          'reviews',
          'add',
          '--vendor',
          'alpha',
          '--rating',
          '5',
          '--title',
          'Great',
          '--body',
          'Fast shipping',
          '--author',
          'Sam',
          '--id',
          'rev-cli-1',
        );
        expect(add.code, add.stderr).toBe(0);
        expect(add.stdout).toMatch(
          /^added review rev-cli-1 to alpha \(5★\)\n(score alpha: \d+ → \d+ \([+-]\d+\)|no score changed)\n$/,
        );

        const badRating = await cli(
          'reviews',
          'add',
          '--vendor',
          'alpha',
          '--rating',
          '6',
          '--title',
          't',
          '--body',
          'b',
          '--author',
          'a',
        );
        expect(badRating.code).toBe(1);
        expect(oneLine(badRating.stderr)).toBe('purerank: --rating must be between 1 and 5, got 6');
        const stranger = await cli(
          'reviews',
          'reply',
          'rev-cli-1',
          '--account',
          'other-co',
          '--body',
          'Thanks!',
        );
        expect(stranger.code).toBe(1);
        expect(oneLine(stranger.stderr)).toMatch(
          /^purerank: .*must be the account that owns vendor 'alpha'\.$/,
        );
        const reply = await cli(
          'reviews',
          'reply',
          'rev-cli-1',
          '--account',
          'owner-co',
          '--body',
          'Thanks!',
        );
        expect(reply.code, reply.stderr).toBe(0);
        expect(reply.stdout).toContain('replied to review rev-cli-1 as owner-co');
      }, 120_000);

      it('lists pending batches, approves one with the missing facts and rejects another', async () => {
        const pending = await cli('batches', 'pending');
        expect(pending.code, pending.stderr).toBe(0);
        expect(pending.stdout).toMatch(/^VENDOR\s+BATCH\s+PEPTIDE\s+SUBMITTED/);
        expect(pending.stdout).toMatch(/^alpha\s+P1\s+tb-500\s/m);
        expect(pending.stdout).toMatch(/^beta\s+P2\s+bpc-157\s/m);
        expect(pending.stdout).toContain('1–2 of 2 pending');
        const page = JSON.parse(
          (await cli('batches', 'pending', '--json', '--limit', '1', '--offset', '1')).stdout,
        ) as {
          total: number;
          items: BatchAdminView[];
        };
        expect(page.total).toBe(2);
        expect(page.items.map((b) => b.batchId)).toEqual(['P2']);

        const bare = await cli('batches', 'approve', 'alpha', 'P1');
        expect(bare.code).toBe(1);
        expect(oneLine(bare.stderr)).toBe(
          'purerank: batch: an approved batch needs purity, lab, testMethod, testedAt.',
        );
        const badPurity = await cli('batches', 'approve', 'alpha', 'P1', '--purity', 'high');
        expect(oneLine(badPurity.stderr)).toBe("purerank: --purity must be a number, got 'high'");

        const testedAt = daysAgo(1);
        const approve = await cli(
          'batches',
          'approve',
          'alpha',
          'p1',
          '--purity',
          '99.2',
          '--lab',
          'acme-labs',
          '--method',
          'HPLC',
          '--tested-at',
          testedAt,
          '--as',
          'bob',
        );
        expect(approve.code, approve.stderr).toBe(0);
        expect(approve.stdout).toContain(
          `approved batch P1 of alpha: tb-500, purity 99.2 %, lab acme-labs, HPLC, tested ${testedAt}`,
        );
        const again = await cli('batches', 'approve', 'alpha', 'P1', '--purity', '99');
        expect(again.code).toBe(1);
        expect(oneLine(again.stderr)).toBe("purerank: Batch 'P1' of 'alpha' is approved, not pending.");

        const reject = await cli('batches', 'reject', 'beta', 'P2');
        expect(reject.code, reject.stderr).toBe(0);
        expect(reject.stdout).toContain('rejected batch P2 of beta (bpc-157)');
        expect((await cli('batches', 'pending')).stdout.trim()).toBe('no pending batches');
      }, 120_000);

      it('puts a live price feed from JSON Lines or JSON; a bad row refuses the whole feed', async () => {
        const file = join(tmpdir(), `listings-${process.pid}-${dialect}.jsonl`);
        writeFileSync(
          file,
          [
            '{"peptideSlug":"bpc-157","vialMg":5,"totalUsd":38.5,"inStock":true}',
            '',
            '# a comment',
            `{"peptideSlug":"tb-500","vialMg":10,"totalUsd":80,"inStock":false,"updatedAt":"${daysAgo(1)}"}`,
          ].join('\n'),
        );
        const put = await cli('listings', 'put', 'alpha', file);
        expect(put.code, put.stderr).toBe(0);
        expect(put.stdout).toMatch(/^put 2 listings for alpha\n/);
        expect(await liveListings(db.url)).toEqual([
          { peptide: 'bpc-157', usd: 38.5 },
          { peptide: 'tb-500', usd: 80 },
        ]);

        const bad = JSON.stringify({
          rows: [
            { peptideSlug: 'bpc-157', vialMg: 5, totalUsd: 1, inStock: true },
            { peptideSlug: 'no-such-peptide', vialMg: 5, totalUsd: 1, inStock: true },
          ],
        });
        const refused = await runCli(['listings', 'put', 'alpha', '-'], db.env, bad);
        expect(refused.code).toBe(1);
        expect(oneLine(refused.stderr)).toBe(
          "purerank: rows[1]: price: peptide 'no-such-peptide' does not exist.",
        );
        const typo = await runCli(
          ['listings', 'put', 'alpha', '-'],
          db.env,
          '{"peptideSlug":"bpc-157","vialMg":5,"totalUsd":1,"instock":true}',
        );
        expect(oneLine(typo.stderr)).toBe("purerank: rows[0]: 'instock' is not a known field");
        expect((await liveListings(db.url))[0]).toEqual({ peptide: 'bpc-157', usd: 38.5 });
      }, 120_000);

      it('recomputes every vendor, prints counts, and the outbox holds every event of the session', async () => {
        const r = await cli('scores', 'recompute', '--as', 'carol');
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/^recomputed 2 vendors: \d+ updated, \d+ scores? changed\n/);

        const all = JSON.parse((await cli('events', 'list', '--json')).stdout) as StoredEvent[];
        const types = new Set(all.map((e) => e.type));
        for (const t of ['review.new', 'review.reply', 'coa.approved', 'coa.rejected'] as const)
          expect(types).toContain(t);
        expect(all.find((e) => e.type === 'coa.approved')?.data).toMatchObject({
          batch_id: 'P1',
          purity: 99.2,
        });
        const seqs = all.map((e) => e.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

        const paged = JSON.parse(
          (await cli('events', 'list', '--after', String(seqs[0]), '--limit', '1', '--json')).stdout,
        );
        expect(paged).toEqual([all[1]]);
        const badType = await cli('events', 'list', '--type', 'score.moved');
        expect(badType.code).toBe(1);
        expect(oneLine(badType.stderr)).toMatch(
          /^purerank: --type must be one of score\.changed, .*got 'score\.moved'$/,
        );
      }, 120_000);

      it('changes the plan and limits of an existing account only', async () => {
        const r = await cli('accounts', 'plan', 'other-co', '--plan', 'custom', '--rate-limit-a', '500');
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.trim()).toBe(
          'account other-co: plan custom (was free); rate limit A 500/h, B plan default',
        );
        const ghost = await cli('accounts', 'plan', 'ghost', '--plan', 'pro');
        expect(ghost.code).toBe(1);
        expect(oneLine(ghost.stderr)).toBe("purerank: Account 'ghost' does not exist.");
        const account = await withDatabase(db.url, (s) => s.accounts.findByName('ghost'));
        expect(account).toBeNull();
        const bad = await cli('accounts', 'plan', 'other-co', '--plan', 'pro', '--rate-limit-b', '0');
        expect(oneLine(bad.stderr)).toBe(
          `purerank: --rate-limit-b must be a whole number from 1 to 1000000 or "default", got '0'`,
        );
      }, 60_000);
    });
  },
);
