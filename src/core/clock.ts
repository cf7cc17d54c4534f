/** Time is a port so tests can move it (rate-limit windows, staleness) without sleeping. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** ISO 8601 UTC with milliseconds, the one timestamp format of the API. */
export const isoTime = (ms: number): string => new Date(ms).toISOString();
