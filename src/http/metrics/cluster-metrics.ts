import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * `/metrics` under `serve --workers N`. The workers share one port, so a scrape lands on whichever
 * worker the primary hands the connection to; counters of one worker alone would jump between
 * scrapes, and Prometheus reads a drop as a reset. A worker that receives a scrape asks the primary,
 * which collects every worker's registries (prom-client's cluster protocol) and answers with their
 * aggregate: counters summed, gauges as each declares (the outbox's are the maximum: one database).
 */

const ASK = 'purerank:metrics-ask';
const ANSWER = 'purerank:metrics-answer';
/** How long a worker waits for the primary's aggregate (prom-client gives each worker 5 s). */
const ANSWER_WITHIN_MS = 6_000;
/** Scrapes waiting for the primary at once, per worker; more are refused (operators only, but bounded). */
const MAX_WAITING = 16;

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

const isAsk = (m: unknown): m is Ask => typeof m === 'object' && m !== null && (m as Ask).type === ASK;
const isAnswer = (m: unknown): m is Answer =>
  typeof m === 'object' && m !== null && (m as Answer).type === ANSWER;

let workerRender: (() => Promise<string>) | null = null;

/**
 * In a cluster worker: registers `registries` for the primary's collection and returns the scrape's
 * text through the primary. Null in a process of its own (no cluster): it answers from its own
 * registries. One per process (prom-client's worker side is process-wide).
 */
export function clusterRender(registries: Registry[]): (() => Promise<string>) | null {
  if (!cluster.isWorker || !process.send) return null;
  if (workerRender) return workerRender;
  // Constructing one adds prom-client's listener that answers the primary's collection requests.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries(registries);
  let seq = 0;
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void }>();
  process.on('message', (m: unknown) => {
    if (!isAnswer(m)) return;
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.text !== undefined) w.resolve(m.text);
    else w.reject(new Error(m.error ?? 'the primary gave no metrics'));
  });
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

/** In the primary of `serve --workers N`: answers a worker's scrape with every worker's metrics. */
export function answerClusterScrapes(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, m: unknown) => {
    if (!isAsk(m)) return;
    const reply = (answer: Answer) => {
      if (worker.isConnected()) worker.send(answer);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ type: ANSWER, id: m.id, text }),
      (err: unknown) =>
        reply({ type: ANSWER, id: m.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
