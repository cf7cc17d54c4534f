import { randomBytes } from 'node:crypto';

/** An event's public id: `evt_` + 32 hex, the same on every delivery (receivers drop duplicates by it). */
export const newEventId = (): string => `evt_${randomBytes(16).toString('hex')}`;
