/**
 * The soak's API keys, spread so that no request meets a 429: Variant B allows 1,000 requests per
 * key per rolling 24 h and Variant A 10,000 per UTC hour (Enterprise), so a load of hundreds of
 * requests per second needs hundreds of keys. A pool hands out its keys in turn, skips a key whose
 * quota in a variant is nearly spent (what is left is read from each answer's X-RateLimit-Remaining,
 * and counted down locally as requests leave, since several are in flight), and asks for more keys
 * when it runs short.
 */
export type Scope = 'a' | 'b';

interface PoolKey {
  key: string;
  left: Record<Scope, number>;
  used: Record<Scope, number>;
}

export class KeyPool {
  private readonly keys: PoolKey[] = [];
  private readonly byKey = new Map<string, PoolKey>();
  private cursor = 0;
  private growing: Promise<void> | null = null;
  /** Times a request waited because no key had quota left (the pool was growing). */
  starved = 0;

  constructor(
    readonly name: string,
    /** Requests kept in reserve per key and variant: more than can be in flight at once. */
    private readonly margin: number,
    /** What a new key is assumed to have until its first answer says (the plan's quotas). */
    private readonly initial: Record<Scope, number>,
    /** Creates `n` more keys (null: this pool cannot grow). */
    private readonly grow: ((n: number) => Promise<string[]>) | null,
  ) {}

  add(key: string, left: Record<Scope, number> = this.initial): void {
    const k = { key, left: { ...left }, used: { a: 0, b: 0 } };
    this.keys.push(k);
    this.byKey.set(key, k);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The next key with quota left in `scope`, counted as used; waits while the pool grows. */
  async take(scope: Scope): Promise<string> {
    for (;;) {
      let usable = 0;
      let found: PoolKey | null = null;
      for (let i = 0; i < this.keys.length; i++) {
        const k = this.keys[(this.cursor + i) % this.keys.length]!;
        if (k.left[scope] > this.margin) {
          usable++;
          if (found === null) {
            found = k;
            this.cursor = (this.cursor + i + 1) % this.keys.length;
          }
          if (usable >= 3) break;
        }
      }
      if (usable < 3 && this.grow !== null && this.growing === null) {
        this.growing = this.grow(Math.max(5, Math.ceil(this.keys.length / 10)))
          .then((keys) => {
            for (const key of keys) this.add(key, this.initial);
          })
          .finally(() => {
            this.growing = null;
          });
      }
      if (found !== null) {
        found.left[scope]--;
        found.used[scope]++;
        return found.key;
      }
      if (this.growing === null)
        throw new Error(`the ${this.name} keys have no ${scope.toUpperCase()} quota left`);
      this.starved++;
      await this.growing;
    }
  }

  /** What the answer says is left of the key's quota in `scope`. */
  note(key: string, scope: Scope, headers: Record<string, string | string[] | undefined>): void {
    const k = this.byKey.get(key);
    const h = headers['x-ratelimit-remaining'];
    const left = typeof h === 'string' ? Number(h) : Number.NaN;
    if (k && Number.isFinite(left)) k.left[scope] = Math.min(k.left[scope], left);
  }

  /** Requests sent per variant, and the most any one key sent. */
  usage(): { keys: number; sent: Record<Scope, number>; mostOnOneKey: Record<Scope, number> } {
    const sent = { a: 0, b: 0 };
    const most = { a: 0, b: 0 };
    for (const k of this.keys) {
      for (const s of ['a', 'b'] as const) {
        sent[s] += k.used[s];
        most[s] = Math.max(most[s], k.used[s]);
      }
    }
    return { keys: this.keys.length, sent, mostOnOneKey: most };
  }
}
