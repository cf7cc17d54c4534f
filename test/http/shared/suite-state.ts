import { expect } from 'vitest';
import type { Plan } from '../../../src/core/accounts/model.ts';
import { revokeKey } from '../../../src/core/keys/manage-keys.ts';
import { bearer, type TestContext } from '../../support/context.ts';
import type { Dialect } from '../../support/databases.ts';
import { type Answer, openTransport, type Transport, type TransportKind } from './transport.ts';
import type { VariantUnderTest } from './variant.ts';

export const REQUEST_ID = /^[0-9a-f]{12}-[0-9a-z]{6,}$/;

/**
 * One run of the shared suite (a variant, a request path, a dialect): the fixture, the keys and the
 * transport, set up in beforeAll and read by the checks when they run.
 */
export class SuiteState {
  ctx!: TestContext;
  transport!: Transport;
  /** When the fixture was set up: every key's first counted hit is at this time (the clock stands still). */
  openedAtMs = 0;
  readonly keys: Record<Plan | 'revoked', string> = {
    free: '',
    pro: '',
    enterprise: '',
    custom: '',
    revoked: '',
  };
  /**
   * How often a refusal is asked for. Over a socket, more than once: the first request makes the
   * key known to the server, and the fast path must refuse (leave to the framework) the next ones.
   */
  get repeats(): number {
    return this.kind === 'socket' ? 3 : 1;
  }
  /** Answers the fast path had to give since the current endpoint's checks began (socket runs). */
  fastExpected = 0;

  constructor(
    readonly variant: VariantUnderTest,
    readonly kind: TransportKind,
  ) {}

  async open(dialect: Dialect): Promise<void> {
    this.ctx = await this.variant.setup(dialect);
    this.openedAtMs = this.ctx.clock.now();
    this.transport = await openTransport(this.kind, this.ctx);
    for (const plan of ['free', 'pro', 'enterprise', 'custom'] as const)
      this.keys[plan] = await this.ctx.keyFor(plan);
    this.keys.revoked = await this.ctx.keyFor('enterprise');
    // The revoked key worked, on this path (over a socket: from the fast path too), so its
    // rejection later is the revocation, not a typo.
    for (const r of await this.answers(this.variant.endpoints[0]!.url, this.auth('revoked')))
      expect(r.statusCode, r.body).toBe(200);
    await revokeKey(this.ctx.container.store, this.keys.revoked);
    if (this.kind === 'socket') await this.warm();
  }

  /**
   * Over a socket, fills the response cache for every URL the checks expect a 200 from, so their
   * successful requests by known keys are the fast path's to answer.
   */
  private async warm(): Promise<void> {
    for (const endpoint of this.variant.endpoints) {
      const urls = [
        endpoint.url,
        ...(endpoint.accepts ?? []).map((a) => this.withQuery(endpoint.url, a.query)),
      ];
      for (const url of urls) {
        const res = await this.send(url, this.auth('enterprise'));
        expect(res.statusCode, `warming ${url}: ${res.body}`).toBe(200);
      }
    }
  }

  async close(): Promise<void> {
    await this.transport?.close();
    await this.ctx?.close();
  }

  send(url: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.transport.get(url, headers);
  }

  auth(who: Plan | 'revoked'): Record<string, string> {
    return bearer(this.keys[who]);
  }

  /** `url` with its query replaced by `query`. */
  withQuery(url: string, query: string): string {
    const path = url.split('?')[0]!;
    return query === '' ? path : `${path}?${query}`;
  }

  /**
   * The answers a success check looks at. In-process: one. Over a socket: the request, then the
   * same request again until the fast path answers it (the cache is warm and the key now known), so
   * every success check holds for both paths' answers.
   */
  async answers(url: string, headers: Record<string, string>): Promise<Answer[]> {
    const first = await this.send(url, headers);
    if (this.kind === 'inject' || first.statusCode !== 200) return [first];
    return [first, ...(await this.untilFast(url, headers))];
  }

  /**
   * Over a socket: sends the request until the fast path answers it, at most `tries` times, and
   * returns every answer. One try is not always enough on PostgreSQL, through no fault: a change
   * notification arrives a moment after the write that sent it (a key created by a check), and a
   * poll marks the versions for a re-read every second; the request that meets either goes to the
   * framework, which re-reads them. Four tries leave room for both at once.
   */
  async untilFast(url: string, headers: Record<string, string>, tries = 4): Promise<Answer[]> {
    const out: Answer[] = [];
    for (let i = 0; i < tries; i++) {
      const res = await this.send(url, headers);
      out.push(res);
      if (res.fast || res.statusCode !== 200) break;
    }
    expect(out.at(-1)!.fast, `GET ${url}: the fast path answered within ${tries} tries`).toBe(true);
    this.fastExpected++;
    return out;
  }
}
