import { randomBytes } from 'node:crypto';

/**
 * Request ids: a random per-process prefix and a counter. Unique across instances and restarts
 * (48 random bits per process) at almost no cost per request; a UUID per request measured several
 * microseconds, a noticeable share of a cached answer.
 */
const PREFIX = randomBytes(6).toString('hex');
let counter = 0;

export const nextRequestId = (): string => `${PREFIX}-${(++counter).toString(36).padStart(6, '0')}`;
