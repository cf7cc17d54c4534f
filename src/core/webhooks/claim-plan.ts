/**
 * How many messages a worker claims per endpoint (issue [7]: bounded concurrency per endpoint and
 * per account; one slow endpoint, or one account's endpoints, never delays the others). A worker
 * claims only what it can start at once, so its in-memory queue is bounded and a claim's lease
 * runs from the moment the attempt begins.
 *
 * - An endpoint at its cap (`perEndpoint` attempts in flight in this worker), or of an account at
 *   its cap (`perAccount`), gets nothing: its backlog, however long, stays in the database and
 *   takes no slot another endpoint could use.
 * - The free slots go round the ACCOUNTS first, one at a time in turn order (the order their
 *   endpoints come in `due`, longest-waiting first), and each account's slot goes round its own
 *   endpoints the same way. An account with 20 endpoints therefore gets no more than an account
 *   with one when both have work, and when more is due than there are slots, each account, then
 *   each of its endpoints, gets a turn before any gets a second.
 */

/** An endpoint with messages due, and the account that owns it. */
export interface DueRef {
  endpointId: string;
  accountId: number;
}

/** Attempts in flight in this worker, per endpoint and per account. */
export interface InFlight {
  endpoints: ReadonlyMap<string, number>;
  accounts: ReadonlyMap<number, number>;
}

export interface ClaimLimits {
  /** Attempts in flight per endpoint per worker (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Attempts in flight per account per worker (WEBHOOK_ACCOUNT_CONCURRENCY). */
  perAccount: number;
}

interface AccountTurn {
  room: number;
  /** Endpoint → room left, in turn order: the one served goes to the back (Map re-insertion). */
  endpoints: Map<string, number>;
}

export function planClaims(
  due: readonly DueRef[],
  inFlight: InFlight,
  limits: ClaimLimits,
  free: number,
): Map<string, number> {
  const accounts = new Map<number, AccountTurn>();
  const seen = new Set<string>();
  for (const d of due) {
    if (seen.has(d.endpointId)) continue;
    seen.add(d.endpointId);
    const epRoom = limits.perEndpoint - (inFlight.endpoints.get(d.endpointId) ?? 0);
    if (epRoom <= 0) continue;
    let turn = accounts.get(d.accountId);
    if (!turn) {
      const room = limits.perAccount - (inFlight.accounts.get(d.accountId) ?? 0);
      if (room <= 0) continue;
      turn = { room, endpoints: new Map() };
      accounts.set(d.accountId, turn);
    }
    turn.endpoints.set(d.endpointId, epRoom);
  }
  const slots = new Map<string, number>();
  let left = free;
  while (left > 0 && accounts.size > 0) {
    for (const [accountId, turn] of accounts) {
      if (left === 0) break;
      // Every account kept here has an endpoint with room (emptied accounts are deleted below).
      const [id, r] = turn.endpoints.entries().next().value as [string, number];
      slots.set(id, (slots.get(id) ?? 0) + 1);
      left -= 1;
      turn.room -= 1;
      turn.endpoints.delete(id);
      if (r > 1) turn.endpoints.set(id, r - 1);
      if (turn.room === 0 || turn.endpoints.size === 0) accounts.delete(accountId);
    }
  }
  return slots;
}

/**
 * The turn order after a claim. An endpoint that yielded fewer messages than asked has nothing
 * more due until the next look at the database: it is dropped. Accounts that were served go to the
 * back (as wholes, so that slots freed one at a time alternate between accounts rather than going
 * round one account's 20 endpoints first), and within such an account its served endpoints go
 * behind its others.
 */
export function nextTurnOrder(
  due: readonly DueRef[],
  slots: ReadonlyMap<string, number>,
  got: ReadonlyMap<string, number>,
): DueRef[] {
  const servedAccounts = new Set<number>();
  for (const d of due) if (slots.has(d.endpointId)) servedAccounts.add(d.accountId);
  const waiting: DueRef[] = [];
  const servedOthers: DueRef[] = [];
  const served: DueRef[] = [];
  for (const d of due) {
    const asked = slots.get(d.endpointId);
    if (asked !== undefined) {
      if ((got.get(d.endpointId) ?? 0) >= asked) served.push(d);
    } else if (servedAccounts.has(d.accountId)) servedOthers.push(d);
    else waiting.push(d);
  }
  return [...waiting, ...servedOthers, ...served];
}

/** Whether any of `due` could get a slot now (ignoring how many are free overall). */
export function anyClaimable(due: readonly DueRef[], inFlight: InFlight, limits: ClaimLimits): boolean {
  return due.some(
    (d) =>
      (inFlight.endpoints.get(d.endpointId) ?? 0) < limits.perEndpoint &&
      (inFlight.accounts.get(d.accountId) ?? 0) < limits.perAccount,
  );
}

/** Endpoints this worker cannot take more of now: left out when it asks which endpoints are due. */
export function fullEndpoints(inFlight: InFlight, limits: ClaimLimits): string[] {
  const out: string[] = [];
  for (const [id, n] of inFlight.endpoints) if (n >= limits.perEndpoint) out.push(id);
  return out;
}

/** Accounts this worker cannot take more of now: their endpoints are left out likewise. */
export function fullAccounts(inFlight: InFlight, limits: ClaimLimits): number[] {
  const out: number[] = [];
  for (const [id, n] of inFlight.accounts) if (n >= limits.perAccount) out.push(id);
  return out;
}
