import type { KeyStore } from '../../../src/core/ports.ts';

/** A spy around a real KeyStore: counts calls per method and forwards them unchanged. */
export function countingKeyStore(
  inner: KeyStore,
): KeyStore & { calls: Record<keyof KeyStore, number>; total(): number } {
  const calls: Record<keyof KeyStore, number> = {
    insert: 0,
    findByHash: 0,
    listForAccount: 0,
    findForRevocation: 0,
    revoke: 0,
  };
  return {
    calls,
    total: () => Object.values(calls).reduce((s, n) => s + n, 0),
    insert: (input) => {
      calls.insert++;
      return inner.insert(input);
    },
    findByHash: (hash) => {
      calls.findByHash++;
      return inner.findByHash(hash);
    },
    listForAccount: (id) => {
      calls.listForAccount++;
      return inner.listForAccount(id);
    },
    findForRevocation: (ref) => {
      calls.findForRevocation++;
      return inner.findForRevocation(ref);
    },
    revoke: (id) => {
      calls.revoke++;
      return inner.revoke(id);
    },
  };
}
