import type { FastifyInstance } from 'fastify';
import { planAllows } from '../../../core/accounts/plans.ts';
import { DomainError } from '../../../core/errors.ts';
import type { AccountKey } from '../../../core/keys/model.ts';
import type { RateLimitScope } from '../../../core/ratelimit/model.ts';
import type { UsageNow, UsageSeries } from '../../../core/usage/model.ts';
import { type Fields, text } from '../form-fields.ts';
import type { PageRoutes } from '../index.ts';
import { type PageContext, page } from '../page-context.ts';
import { memberOf } from './member-of.ts';
import { planOffer } from './plan-offer.ts';

const HOURS = 7 * 24;
const DAYS = 90;

/** What a chart block of the page carries: pages.js draws it with uPlot. */
interface Chart {
  x: number[];
  series: { label: string; values: number[]; color?: string }[];
}

interface Totals {
  requests: { a: number; b: number };
  limited: number;
}

/** Sums the series shown (one key's, or all) per slot: A and B requests, 429s apart. */
function chartOf(series: readonly UsageSeries[]): { chart: Chart; totals: Totals; rows: ChartRow[] } {
  const length = series[0]?.points.length ?? 0;
  const x = series[0]?.points.map((p) => Math.floor(p.t / 1000)) ?? [];
  const a = new Array<number>(length).fill(0);
  const b = new Array<number>(length).fill(0);
  const limited = new Array<number>(length).fill(0);
  for (const s of series) {
    const into = s.scope === 'a' ? a : b;
    s.points.forEach((p, i) => {
      into[i] = (into[i] ?? 0) + p.requests;
      limited[i] = (limited[i] ?? 0) + p.limited;
    });
  }
  const sum = (v: number[]) => v.reduce((n, x) => n + x, 0);
  const rows: ChartRow[] = x.map((t, i) => ({
    t: t * 1000,
    a: a[i] ?? 0,
    b: b[i] ?? 0,
    limited: limited[i] ?? 0,
  }));
  return {
    chart: {
      x,
      series: [
        { label: 'Variant A requests', values: a },
        { label: 'Variant B requests', values: b },
        { label: 'Refused (429)', values: limited, color: '#c0392b' },
      ],
    },
    totals: { requests: { a: sum(a), b: sum(b) }, limited: sum(limited) },
    rows,
  };
}

interface ChartRow {
  t: number;
  a: number;
  b: number;
  limited: number;
}

/** One row of the "now" table: a key in a variant against its limit. */
interface NowRow extends UsageNow {
  key: AccountKey | undefined;
  window: string;
}

/** Per key and variant: requests and 429s over both spans (the charts' text alternative). */
function totalsByKey(hourly: readonly UsageSeries[], daily: readonly UsageSeries[]) {
  type Span = { requests: number; limited: number };
  const rows = new Map<string, { keyId: string; scope: RateLimitScope; week: Span; quarter: Span }>();
  const add = (s: UsageSeries, span: 'week' | 'quarter') => {
    const id = `${s.keyId}:${s.scope}`;
    let row = rows.get(id);
    if (!row) {
      row = {
        keyId: s.keyId,
        scope: s.scope,
        week: { requests: 0, limited: 0 },
        quarter: { requests: 0, limited: 0 },
      };
      rows.set(id, row);
    }
    for (const p of s.points) {
      row[span].requests += p.requests;
      row[span].limited += p.limited;
    }
  };
  for (const s of hourly) add(s, 'week');
  for (const s of daily) add(s, 'quarter');
  return [...rows.values()];
}

/**
 * Usage (/dashboard/usage): where each key stands now in each variant against its limit (from the
 * limiter, not counted: UsageService.current), requests per hour over 7 days and per day over 90
 * with 429s apart (UsageService.hourly/daily), for all keys or one (`?key=`), and the same as tables.
 */
export const usagePages: PageRoutes = (app: FastifyInstance, ctx: PageContext) => {
  const { usage, accountKeys, config } = ctx.services;

  app.get<{ Querystring: Fields }>('/usage', async (request, reply) => {
    const { account } = memberOf(request);
    const keys = await accountKeys.list(account.id);
    const keyId = text(request.query, 'key', 64).trim();
    const selected = keyId === '' ? null : (keys.find((k) => k.id === keyId) ?? null);
    // Another account's key, or none at all: not this account's to look at.
    if (keyId !== '' && !selected) throw new DomainError('not_found', `No key '${keyId}' in this account.`);
    const [now, hourly, daily] = await Promise.all([
      usage.current(account.id),
      usage.hourly(account.id, HOURS),
      usage.daily(account.id, DAYS),
    ]);
    const only = (s: readonly UsageSeries[]) => (selected ? s.filter((x) => x.keyId === selected.id) : s);
    const byId = new Map(keys.map((k) => [k.id, k]));
    const nowRows: NowRow[] = now
      .filter((n) => !selected || n.keyId === selected.id)
      .map((n) => ({
        ...n,
        key: byId.get(n.keyId),
        window: n.scope === 'a' ? 'this UTC hour' : 'rolling 24 hours',
      }));
    const week = chartOf(only(hourly));
    const quarter = chartOf(only(daily));
    const api = planAllows(account.plan, 'read');
    return page(request, reply, 'dashboard-usage', {
      title: 'Usage',
      area: 'dashboard',
      keys,
      selected,
      now: nowRows,
      week,
      quarter,
      // Days with anything in them, newest first: the daily chart as a table.
      days: quarter.rows.filter((r) => r.a + r.b + r.limited > 0).reverse(),
      totals: totalsByKey(only(hourly), only(daily)).map((t) => ({ ...t, key: byId.get(t.keyId) })),
      api,
      offer: api ? null : planOffer(config, account.plan, 'read'),
    });
  });
};
