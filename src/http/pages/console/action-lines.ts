import type { OperatorAction } from '../../../core/operator/actions.ts';

/** One entry of the operator decision log as the console's tables show it. */
export interface ActionLine {
  id: number;
  at: string;
  actor: string;
  /** The kind, as stored (`batch.rejected`): a badge. */
  action: string;
  vendorSlug: string | null;
  /** What was decided, in words (the batch or field, the values written, the score move). */
  what: string;
  reason: string | null;
}

const limitText = (v: number | null | undefined): string =>
  v === undefined ? 'kept' : v === null ? 'plan default' : String(v);

function describe(a: OperatorAction): string {
  const d = a.details ?? {};
  let what: string;
  switch (a.action) {
    case 'batch.approved': {
      const facts = [
        d.purity === null || d.purity === undefined ? null : `${d.purity} %`,
        d.lab ?? null,
        d.testMethod ?? null,
        d.testedAt ? d.testedAt.slice(0, 10) : null,
      ].filter((x) => x !== null);
      what = `Approved batch ${a.subject}${d.peptide ? ` of ${d.peptide}` : ''}${facts.length ? ` (${facts.join(', ')})` : ''}`;
      break;
    }
    case 'batch.rejected':
      what = `Rejected batch ${a.subject}${d.peptide ? ` of ${d.peptide}` : ''}`;
      break;
    case 'override.set':
      what = `Set the ${a.subject} override to ${d.value}${d.replaced ? ` (was ${d.replaced.value}, set by ${d.replaced.setBy})` : ''}`;
      break;
    case 'override.cleared':
      what = d.cleared
        ? `Cleared the ${a.subject} override of ${d.cleared.value} (set by ${d.cleared.setBy}: ${d.cleared.reason || 'no reason'})`
        : `Cleared the ${a.subject} override`;
      break;
    case 'account.plan_changed': {
      const to = d.to;
      const limits =
        to?.plan === 'custom' ? `, /v1 ${limitText(to.rateLimitA)}, /api/v1 ${limitText(to.rateLimitB)}` : '';
      what = `Plan of ${a.subject}: ${d.from?.plan ?? '?'} → ${to?.plan ?? '?'}${limits}`;
      break;
    }
  }
  if (d.score) what += `; score ${d.score.previous ?? 'unscored'} → ${d.score.next}`;
  return what;
}

export const actionLines = (actions: readonly OperatorAction[]): ActionLine[] =>
  actions.map((a) => ({
    id: a.id,
    at: a.at,
    actor: a.actor,
    action: a.action,
    vendorSlug: a.vendorSlug,
    what: describe(a),
    reason: a.reason,
  }));
