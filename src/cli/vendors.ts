import type { Command } from 'commander';
import type { VendorAdminView } from '../core/operator/model.ts';
import type { Operator } from '../core/operator/operator.ts';
import { tierOf } from '../core/scoring/composite.ts';
import { type ListingPlan, PILLARS } from '../core/vendors/model.ts';
import { withContainer } from './context.ts';
import {
  actorOf,
  actorOption,
  cell,
  choice,
  jsonOption,
  keyValues,
  out,
  printJson,
  printOutcome,
  table,
} from './operator-io.ts';

const LISTING_PLANS: readonly ListingPlan[] = ['free', 'premium'];
type VendorPatch = Parameters<Operator['updateVendor']>[1];

export function vendorsCommand(program: Command): void {
  const vendors = program
    .command('vendors')
    .description('Inspect vendors and set their verification, pending flag, listing plan and owner.');

  jsonOption(
    vendors
      .command('show')
      .argument('<vendor>', 'vendor slug')
      .description('Show a vendor as the operator sees it: flags, owner, pillars, overrides, score history.'),
  ).action(async (slug: string, o: { json?: boolean }) => {
    await withContainer(async ({ operator: op }) => {
      const v = await op.vendor(slug);
      if (o.json) printJson(v);
      else out(formatVendor(v));
    });
  });

  flagCommand(vendors, 'verify', 'Mark a vendor verified (verified-at is set to now).', () => ({
    patch: (v) => (v.verified ? null : { verified: true }),
    state: verifiedState,
  }));
  flagCommand(vendors, 'unverify', 'Remove the verified mark (verified-at is cleared).', () => ({
    patch: (v) => (v.verified ? { verified: false } : null),
    state: verifiedState,
  }));
  flagCommand(
    vendors,
    'pending',
    "Set the operator's pending flag (shown publicly as pending).",
    (state) => {
      const pending = choice('state', state, ['on', 'off'] as const) === 'on';
      return {
        patch: (v) => (v.pending === pending ? null : { pending }),
        state: (v) => `pending ${v.pending ? 'on' : 'off'}`,
      };
    },
    ['<state>', 'on or off'],
  );
  flagCommand(
    vendors,
    'plan',
    'Set the listing plan (premium listings show their website on /api/v1).',
    (plan) => {
      const listingPlan = choice('plan', plan, LISTING_PLANS);
      return {
        patch: (v) => (v.listingPlan === listingPlan ? null : { listingPlan }),
        state: (v) => `listing plan ${v.listingPlan}`,
      };
    },
    ['<plan>', LISTING_PLANS.join(' or ')],
  );

  actorOption(
    vendors
      .command('claim')
      .argument('<vendor>', 'vendor slug')
      .argument('<account>', 'account name')
      .description('Give the vendor profile to an account: it may then reply to the vendor’s reviews.'),
  ).action(async (slug: string, account: string, o: { as?: string }) => {
    const actor = actorOf(o);
    await withContainer(async ({ operator: op }) => {
      const before = await op.vendor(slug);
      if (before.ownerAccount === account) {
        out(`${slug}: unchanged (claimed by ${account})`);
        return;
      }
      const r = await op.claimVendor(slug, account, actor);
      out(`${slug}: claimed by ${account}${before.ownerAccount ? ` (was ${before.ownerAccount})` : ''}`);
      printOutcome(r);
    });
  });

  actorOption(
    vendors
      .command('unclaim')
      .argument('<vendor>', 'vendor slug')
      .description('Release the vendor profile from its account.'),
  ).action(async (slug: string, o: { as?: string }) => {
    const actor = actorOf(o);
    await withContainer(async ({ operator: op }) => {
      const before = await op.vendor(slug);
      if (before.ownerAccount === null) {
        out(`${slug}: unchanged (not claimed)`);
        return;
      }
      const r = await op.claimVendor(slug, null, actor);
      out(`${slug}: no longer claimed (was ${before.ownerAccount})`);
      printOutcome(r);
    });
  });
}

/**
 * A vendor flag command: `vendors NAME VENDOR [VALUE]`. A no-op (the vendor already is so) writes
 * nothing and says `unchanged`; otherwise it prints the new state and the score changes.
 */
function flagCommand(
  parent: Command,
  name: string,
  description: string,
  build: (value: string) => {
    patch: (v: VendorAdminView) => VendorPatch | null;
    state: (v: VendorAdminView) => string;
  },
  valueArg?: [string, string],
): void {
  const cmd = parent.command(name).argument('<vendor>', 'vendor slug');
  if (valueArg) cmd.argument(valueArg[0], valueArg[1]);
  actorOption(cmd.description(description)).action(async (...args: unknown[]) => {
    const slug = args[0] as string;
    const value = valueArg ? (args[1] as string) : '';
    const o = args[valueArg ? 2 : 1] as { as?: string };
    const actor = actorOf(o);
    const { patch, state } = build(value);
    await withContainer(async ({ operator: op }) => {
      const before = await op.vendor(slug);
      const p = patch(before);
      if (p === null) {
        out(`${slug}: unchanged (${state(before)})`);
        return;
      }
      const r = await op.updateVendor(slug, p, actor);
      out(`${slug}: ${state(r.vendor)}`);
      printOutcome(r);
    });
  });
}

const verifiedState = (v: VendorAdminView): string =>
  v.verified ? `verified${v.verifiedAt ? ` since ${v.verifiedAt}` : ''}` : 'not verified';

export function formatVendor(v: VendorAdminView): string {
  const lines = [
    `${v.slug} (${v.name})`,
    keyValues([
      ['verified', v.verified ? `yes${v.verifiedAt ? `, since ${v.verifiedAt}` : ''}` : 'no'],
      ['pending', v.pending ? 'on' : 'off'],
      ['listing plan', v.listingPlan],
      ['claimed by', v.ownerAccount ?? '-'],
      ['score', v.score === null ? 'unscored (too little evidence)' : `${v.score} (${tierOf(v.score)})`],
    ]),
    '',
    table(
      ['pillar', 'computed', 'effective', 'override'],
      PILLARS.map((p) => [
        p,
        cell(v.computed[p]),
        cell(v.pillars?.[p]),
        cell(v.overrides.find((o) => o.field === p)?.value),
      ]),
    ),
  ];
  const scoreOverride = v.overrides.find((o) => o.field === 'score');
  if (scoreOverride) lines.push(`score pinned at ${scoreOverride.value} by an override`);
  lines.push('');
  if (v.overrides.length === 0) lines.push('overrides: none');
  else {
    lines.push('overrides:');
    for (const o of v.overrides)
      lines.push(`  ${o.field} = ${o.value}  by ${o.setBy} at ${o.setAt}: ${o.reason}`);
  }
  if (v.history.length === 0) lines.push('score history: none');
  else {
    lines.push('score history (oldest first):');
    for (const h of v.history) lines.push(`  ${h.recordedAt}  ${String(h.score).padStart(3)}  ${h.reason}`);
  }
  return lines.join('\n');
}
