import type { Problem } from './checks.ts';
import { serialize, type WireRequest, type WireResponse } from './raw-http.ts';
import type { FuzzWorld } from './target.ts';

/** One failure class: every problem with the same kind, place and shape of detail. */
export interface FindingClass {
  key: string;
  kind: string;
  where: string;
  count: number;
  /** Every place (operation or protocol case) that showed it. */
  places: Set<string>;
  /** The shortest request that showed it, and what came back. */
  request: WireRequest;
  status: number;
  detail: string;
  size: number;
}

/** Problems grouped into classes; keeps the shortest reproduction of each. */
export class Findings {
  readonly classes = new Map<string, FindingClass>();
  requests = 0;
  failedRequests = 0;

  record(req: WireRequest, res: WireResponse, problems: Problem[]): void {
    this.requests++;
    if (problems.length) this.failedRequests++;
    const size = (req.raw ?? serialize(req, 'h')).length;
    for (const p of problems) {
      const key = classKey(p, res.status);
      const seen = this.classes.get(key);
      if (!seen) {
        this.classes.set(key, {
          key,
          kind: p.kind,
          where: p.where,
          count: 1,
          places: new Set([p.where]),
          request: req,
          status: res.status,
          detail: p.detail,
          size,
        });
        continue;
      }
      seen.count++;
      seen.places.add(p.where);
      if (size < seen.size)
        Object.assign(seen, { request: req, where: p.where, status: res.status, detail: p.detail, size });
    }
  }
}

/**
 * Digits, ids and quoted values vary between requests of one class; the shape does not. A 5xx or a
 * schema failure belongs to its operation; a wrong error body or no answer usually has one cause
 * wherever it shows (the server's protocol error handler, a hook), so its place is not in the key.
 */
const PER_OPERATION = new Set(['5xx', 'schema', 'loose-integer', 'unstable', 'undocumented-2xx']);

export function classKey(p: Problem, status: number): string {
  const shape = p.detail
    .replace(/(?:\/|\[)\d+(?=\/|\]|\s|$)/g, '/N')
    .replace(/"[^"]*"|'[^']*'|\b[0-9a-f]{12}-[0-9a-z]+\b/g, '…')
    .replace(/\d+/g, 'N')
    .split(/; /)
    .map((d) => d.split(/: |\s…/)[0])
    .join('; ')
    .slice(0, 160);
  return `${p.kind} | ${PER_OPERATION.has(p.kind) ? p.where : '*'} | ${status} | ${shape}`;
}

/** The request as a shell line that replays it byte for byte, with keys named instead of spelled. */
export function reproduction(req: WireRequest, world: FuzzWorld): string {
  let text = req.raw ?? serialize(req, 'localhost:3000');
  const names: [string, string][] = [
    [world.admin, '$ADMIN_TOKEN'],
    [world.custom, '$KEY_CUSTOM'],
    [world.free, '$KEY_FREE'],
    [world.pro, '$KEY_PRO'],
    [world.enterprise, '$KEY_ENTERPRISE'],
    [world.revoked, '$KEY_REVOKED'],
  ];
  for (const [value, name] of names) text = text.replaceAll(value, name);
  // Long runs of one character are written as "c×N" (not replayable as is, but readable).
  const shown = text
    .replace(/(.)\1{40,}/gs, (run, c: string) => `${escapeByte(c)}×${run.length}`)
    .replace(/[^\x20-\x7e×]|'|\\/g, escapeByte);
  return `printf '${shown}' | nc -q 2 localhost 3000`;
}

function escapeByte(c: string): string {
  if (c === '\r') return '\\r';
  if (c === '\n') return '\\n';
  if (c === '\t') return '\\t';
  if (c === "'") return "'\\''";
  if (c === '\\') return '\\\\';
  const code = c.charCodeAt(0);
  return code >= 0x20 && code < 0x7f ? c : `\\x${code.toString(16).padStart(2, '0')}`;
}

/** A Markdown report of the classes found, worst first. */
export function report(findings: Findings, world: FuzzWorld): string {
  const order = [
    '5xx',
    'no-answer',
    'leak',
    'schema',
    'loose-integer',
    'unstable',
    'error-body',
    'undocumented-2xx',
  ];
  const classes = [...findings.classes.values()].sort(
    (a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || b.count - a.count,
  );
  return classes
    .map(
      (c) =>
        `- **${c.kind}** · ${c.status} · ${c.count}× · ${places(c)}\n  ${c.detail.slice(0, 300)}\n  \`${reproduction(c.request, world).slice(0, 600)}\``,
    )
    .join('\n');
}

function places(c: FindingClass): string {
  const all = [c.where, ...[...c.places].filter((p) => p !== c.where)];
  return all.length > 4 ? `${all.slice(0, 4).join(', ')} (+${all.length - 4} more)` : all.join(', ');
}
