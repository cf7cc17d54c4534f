import type { KeyStore } from '../../../src/core/ports.ts';

const METHODS = [
  'insert',
  'findByHash',
  'listForAccount',
  'findForRevocation',
  'revoke',
  'listAccountKeys',
  'findAccountKey',
  'revokeAccountKey',
  'roll',
] as const satisfies readonly (keyof KeyStore)[];
// Fails to compile when KeyStore gains a method the spy does not forward.
const EVERY_METHOD: [Exclude<keyof KeyStore, (typeof METHODS)[number]>] extends [never] ? true : never = true;
void EVERY_METHOD;

/** A spy around a real KeyStore: counts calls per method and forwards them unchanged. */
export function countingKeyStore(
  inner: KeyStore,
): KeyStore & { calls: Record<keyof KeyStore, number>; total(): number } {
  const calls = Object.fromEntries(METHODS.map((m) => [m, 0])) as Record<keyof KeyStore, number>;
  const spy = {
    calls,
    total: () => Object.values(calls).reduce((s, n) => s + n, 0),
  } as KeyStore & { calls: Record<keyof KeyStore, number>; total(): number };
  for (const m of METHODS) {
    const forward = inner[m] as (...args: unknown[]) => unknown;
    (spy as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => {
      calls[m]++;
      return forward.apply(inner, args);
    };
  }
  return spy;
}
