import cluster, { type Worker } from 'node:cluster';
import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue,
  type Registry,
} from 'prom-client';

/**
 * `/metrics` under `serve --workers N`. The workers share one port, so a scrape lands on whichever
 * worker the primary hands the connection to; counters of one worker alone would jump between
 * scrapes, and Prometheus reads a drop as a reset. A worker that receives a scrape asks the primary,
 * which collects the registries of every worker that has them and answers with their aggregate
 * (prom-client's `AggregatorRegistry.aggregate`): counters summed, gauges as each declares (the
 * outbox's are the maximum: one database).
 *
 * The collection is ours, not prom-client's `clusterMetrics()`: that one asks every connected
 * worker, a worker still starting (its registries not made yet) included, which never answers, so
 * every scrape while a worker is replaced failed; and its 5 s limit is hard-coded. Here the primary
 * asks only the workers that said their registries are ready, stops waiting for one that exits, and
 * gives up after COLLECT_WITHIN_MS.
 */

const READY = 'purerank:metrics-ready';
const ASK = 'purerank:metrics-ask';
const ANSWER = 'purerank:metrics-answer';
const COLLECT = 'purerank:metrics-collect';
const COLLECTED = 'purerank:metrics-collected';

/**
 * How long the primary waits for the workers' registries: past it the scrape answers 503
 * `service_unavailable` (docs/reliability.md says 4 s; the sample Prometheus configuration's
 * scrape_timeout is 10 s, well above it).
 */
export const COLLECT_WITHIN_MS = 4_000;
/** How long a worker waits for the primary's answer: a backstop, should the primary not answer at all. */
export const ANSWER_WITHIN_MS = COLLECT_WITHIN_MS + 500;
/** Scrapes waiting for the primary at once, per worker; more are refused (operators only, but bounded). */
const MAX_WAITING = 16;

type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

interface Ask {
  type: typeof ASK;
  id: number;
}
interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}
interface Collect {
  type: typeof COLLECT;
  id: number;
}
interface Collected {
  type: typeof COLLECTED;
  id: number;
  metrics?: MetricsJson[];
  error?: string;
}

const typed =
  <T extends { type: string }>(type: T['type']) =>
  (m: unknown): m is T =>
    typeof m === 'object' && m !== null && (m as { type?: unknown }).type === type;
const isAsk = typed<Ask>(ASK);
const isAnswer = typed<Answer>(ANSWER);
const isCollect = typed<Collect>(COLLECT);
const isCollected = typed<Collected>(COLLECTED);
const isReady = typed<{ type: typeof READY }>(READY);

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

let workerRender: (() => Promise<string>) | null = null;

/**
 * In a cluster worker: answers the primary's collections with `registries`, tells the primary they
 * are ready, and returns the scrape's text through the primary. Null in a process of its own (no
 * cluster): it answers from its own registries. One per process.
 */
export function clusterRender(registries: Registry[]): (() => Promise<string>) | null {
  if (!cluster.isWorker || !process.send) return null;
  if (workerRender) return workerRender;
  let seq = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();
  process.on('message', (m: unknown) => {
    if (isCollect(m)) {
      Promise.all(registries.map((r) => r.getMetricsAsJSON())).then(
        (metrics) => process.send?.({ type: COLLECTED, id: m.id, metrics } satisfies Collected),
        (err: unknown) =>
          process.send?.({ type: COLLECTED, id: m.id, error: messageOf(err) } satisfies Collected),
      );
      return;
    }
    if (!isAnswer(m)) return;
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.text !== undefined) w.resolve(m.text);
    else w.reject(new Error(m.error ?? 'the primary gave no metrics'));
  });
  process.send({ type: READY });
  workerRender = () =>
    new Promise<string>((resolve, reject) => {
      if (waiting.size >= MAX_WAITING) return reject(new Error('too many scrapes are waiting'));
      const id = ++seq;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary did not answer in time'));
      }, ANSWER_WITHIN_MS);
      timer.unref();
      waiting.set(id, {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      const ask: Ask = { type: ASK, id };
      process.send?.(ask);
    });
  return workerRender;
}

/** One collection in the primary: the workers still to answer, and what the others gave. */
interface Collection {
  pending: Set<Worker>;
  metrics: MetricsJson[];
  finish(err: Error | null): void;
}

/** In the primary of `serve --workers N`: answers a worker's scrape with every worker's metrics. */
export function answerClusterScrapes(): void {
  const ready = new Set<Worker>();
  const collections = new Map<number, Collection>();
  let seq = 0;

  const collect = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      const c: Collection = {
        pending: new Set(),
        metrics: [],
        finish(err) {
          if (!collections.delete(id)) return;
          clearTimeout(timer);
          if (err) return reject(err);
          try {
            resolve(AggregatorRegistry.aggregate(c.metrics).metrics());
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        },
      };
      const timer = setTimeout(
        () => c.finish(new Error(`not every worker answered within ${COLLECT_WITHIN_MS / 1000} s`)),
        COLLECT_WITHIN_MS,
      );
      collections.set(id, c);
      const ask: Collect = { type: COLLECT, id };
      for (const w of ready) {
        if (!w.isConnected()) continue;
        c.pending.add(w);
        w.send(ask);
      }
      if (c.pending.size === 0) c.finish(null);
    });

  cluster.on('message', (worker, m: unknown) => {
    if (isReady(m)) {
      ready.add(worker);
      return;
    }
    if (isCollected(m)) {
      const c = collections.get(m.id);
      if (!c?.pending.delete(worker)) return;
      if (m.error !== undefined || !m.metrics)
        return c.finish(new Error(m.error ?? 'a worker gave no metrics'));
      c.metrics.push(...m.metrics);
      if (c.pending.size === 0) c.finish(null);
      return;
    }
    if (!isAsk(m)) return;
    const reply = (answer: Answer) => {
      if (worker.isConnected()) worker.send(answer);
    };
    collect().then(
      (text) => reply({ type: ANSWER, id: m.id, text }),
      (err: unknown) => reply({ type: ANSWER, id: m.id, error: messageOf(err) }),
    );
  });
  // A worker that exits takes its metrics with it: the collections in flight stop waiting for it.
  cluster.on('exit', (worker) => {
    ready.delete(worker);
    for (const c of [...collections.values()]) {
      if (c.pending.delete(worker) && c.pending.size === 0) c.finish(null);
    }
  });
}
