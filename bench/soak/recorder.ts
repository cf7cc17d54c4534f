import { Histogram } from './histogram.ts';

/**
 * What the soak saw, per kind of request: counts and latency for the current report interval and for
 * the whole run, and the errors, grouped (kind, status, code) with one example each. Its size does
 * not grow with the run's length: a histogram per kind, and at most MAX_ERROR_GROUPS groups.
 */
export interface ErrorGroup {
  kind: string;
  status: number;
  count: number;
  example: string;
}

const MAX_ERROR_GROUPS = 100;

class KindStats {
  readonly interval = new Histogram();
  readonly total = new Histogram();
  intervalErrors = 0;
  totalErrors = 0;
}

export class Recorder {
  readonly kinds = new Map<string, KindStats>();
  readonly errors = new Map<string, ErrorGroup>();
  /** Errors not grouped because MAX_ERROR_GROUPS was reached (still counted per kind). */
  ungrouped = 0;

  private stats(kind: string): KindStats {
    let s = this.kinds.get(kind);
    if (!s) {
      s = new KindStats();
      this.kinds.set(kind, s);
    }
    return s;
  }

  ok(kind: string, ms: number): void {
    const s = this.stats(kind);
    s.interval.record(ms);
    s.total.record(ms);
  }

  /** An answer ≥ 500, a 4xx the soak did not ask for, a failed connection (status 0), or a wrong body. */
  error(kind: string, status: number, ms: number, body: string): void {
    const s = this.stats(kind);
    s.interval.record(ms);
    s.total.record(ms);
    s.intervalErrors++;
    s.totalErrors++;
    let code = '';
    try {
      code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? '';
    } catch {
      code = body.slice(0, 40);
    }
    const id = `${kind} ${status} ${code}`;
    const g = this.errors.get(id);
    if (g) g.count++;
    else if (this.errors.size < MAX_ERROR_GROUPS)
      this.errors.set(id, { kind, status, count: 1, example: body.slice(0, 300) });
    else this.ungrouped++;
  }

  get totalErrors(): number {
    let n = 0;
    for (const s of this.kinds.values()) n += s.totalErrors;
    return n;
  }
}
