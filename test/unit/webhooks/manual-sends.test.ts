import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/core/errors.ts';
import { ManualSendGate } from '../../../src/core/webhooks/manual-sends.ts';

const limits = { perAccountInFlight: 2, perAccountPerMinute: 5, totalInFlight: 3 };

function gate() {
  let now = 1_000_000;
  const g = new ManualSendGate(() => now, limits);
  return { g, advance: (ms: number) => (now += ms) };
}

/** A send that finishes when told to. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { send: () => done.then(() => 'sent'), release };
}

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
};

describe('ManualSendGate', () => {
  it('holds an account to its sends in flight, and the process to its total; each refusal says when to retry', async () => {
    const { g } = gate();
    const a = held();
    const running = [g.run(1, a.send), g.run(1, a.send)];
    const perAccount = await refusal(g.run(1, async () => 'x'));
    expect(perAccount.code).toBe('rate_limited');
    expect(perAccount.details).toEqual({ retryAfterSeconds: 1 });
    running.push(g.run(2, a.send));
    const total = await refusal(g.run(3, async () => 'x'));
    expect(total.code).toBe('service_unavailable');
    a.release();
    expect(await Promise.all(running)).toEqual(['sent', 'sent', 'sent']);
    expect(await g.run(3, async () => 'now')).toBe('now');
  });

  it('counts a minute per account; refused sends do not run and do not count', async () => {
    const { g, advance } = gate();
    let ran = 0;
    const send = async () => ++ran;
    for (let i = 0; i < 5; i++) await g.run(1, send);
    advance(15_000);
    const r = await refusal(g.run(1, send));
    expect(r.code).toBe('rate_limited');
    expect(r.details).toEqual({ retryAfterSeconds: 45 });
    expect(ran).toBe(5);
    expect(await g.run(2, send)).toBe(6);
    advance(45_000);
    expect(await g.run(1, send)).toBe(7);
  });

  it('forgets accounts whose minute is over and that have nothing in flight (its memory stays small)', async () => {
    const { g, advance } = gate();
    for (let id = 0; id < 100; id++) await g.run(id, async () => null);
    expect(g.size).toBe(100);
    advance(60_000);
    await g.run(1_000, async () => null);
    expect(g.size).toBe(1);
  });

  it('a send that throws frees its place', async () => {
    const { g } = gate();
    for (let i = 0; i < 3; i++) {
      await expect(
        g.run(1, async () => {
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
    }
    expect(await g.run(1, async () => 'ok')).toBe('ok');
  });
});
