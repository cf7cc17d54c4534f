import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * The customers' servers: one listener on loopback, one path per registered endpoint, 204 for every
 * delivery whose signature (checked with the `standardwebhooks` package, an implementation of the
 * scheme independent of the service's) and body shape hold, 400 otherwise (the service then retries
 * it, and the soak counts it as an error). Duplicates (the same webhook-id on the same path again:
 * at-least-once allows them) are counted among the last ids seen, a bounded set.
 */
export interface ReceiverCounts {
  deliveries: number;
  duplicates: number;
  byType: Record<string, number>;
  /** Deliveries that failed the check, with the first few reasons. */
  bad: number;
  badExamples: string[];
}

const REMEMBERED_IDS = 20_000;

export class Receiver {
  private server: Server | null = null;
  private readonly secrets = new Map<string, Webhook>();
  private readonly seen = new Set<string>();
  readonly counts: ReceiverCounts = { deliveries: 0, duplicates: 0, byType: {}, bad: 0, badExamples: [] };

  async listen(): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const problem = this.check(req.url ?? '', req.headers, Buffer.concat(chunks).toString('utf8'));
        if (problem !== null) {
          this.counts.bad++;
          if (this.counts.badExamples.length < 5) this.counts.badExamples.push(problem);
        }
        res.writeHead(problem === null ? 204 : 400).end();
      });
    });
    this.server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** Expect deliveries on `path`, signed with `secret`. */
  expect(path: string, secret: string): void {
    this.secrets.set(path, new Webhook(secret));
  }

  private check(
    path: string,
    headers: Record<string, string | string[] | undefined>,
    body: string,
  ): string | null {
    const wh = this.secrets.get(path);
    if (!wh) return `a POST to ${path}, which no endpoint uses`;
    const id = headers['webhook-id'];
    try {
      const event = wh.verify(body, {
        'webhook-id': String(id),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }) as { id?: unknown; type?: unknown; created?: unknown; data?: unknown };
      if (
        typeof event.type !== 'string' ||
        event.id !== id ||
        typeof event.created !== 'number' ||
        typeof event.data !== 'object'
      )
        return `${path}: a body not shaped {id, type, created, data}: ${body.slice(0, 200)}`;
      this.counts.deliveries++;
      this.counts.byType[event.type] = (this.counts.byType[event.type] ?? 0) + 1;
      const pair = `${path} ${String(id)}`;
      if (this.seen.has(pair)) this.counts.duplicates++;
      else {
        this.seen.add(pair);
        // A Set iterates in insertion order: the first is the oldest.
        if (this.seen.size > REMEMBERED_IDS) this.seen.delete(this.seen.values().next().value as string);
      }
      return null;
    } catch (e) {
      return `${path}: ${(e as Error).message}`;
    }
  }

  async close(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}
