/**
 * How many messages a worker claims per endpoint (issue [7]: bounded concurrency per endpoint; one
 * slow endpoint never delays the others). A worker claims only what it can start at once, so its
 * in-memory queue is bounded and a claim's lease runs from the moment the attempt begins.
 *
 * - An endpoint at its cap (`perEndpoint` attempts in flight in this worker) gets nothing: its
 *   backlog, however long, stays in the database and takes no slot another endpoint could use.
 * - The free slots go round the due endpoints one at a time, longest-waiting first, so when more
 *   endpoints are due than there are slots, each gets a turn before any gets a second.
 */
export function planClaims(
  due: readonly string[],
  inFlight: ReadonlyMap<string, number>,
  perEndpoint: number,
  free: number,
): Map<string, number> {
  const room = new Map<string, number>();
  for (const id of due) {
    const r = perEndpoint - (inFlight.get(id) ?? 0);
    if (r > 0 && !room.has(id)) room.set(id, r);
  }
  const slots = new Map<string, number>();
  let left = free;
  while (left > 0 && room.size > 0) {
    for (const [id, r] of room) {
      if (left === 0) break;
      slots.set(id, (slots.get(id) ?? 0) + 1);
      left -= 1;
      if (r === 1) room.delete(id);
      else room.set(id, r - 1);
    }
  }
  return slots;
}

/** Endpoints this worker cannot take more of now: left out when it asks which endpoints are due. */
export function fullEndpoints(inFlight: ReadonlyMap<string, number>, perEndpoint: number): string[] {
  const out: string[] = [];
  for (const [id, n] of inFlight) if (n >= perEndpoint) out.push(id);
  return out;
}
