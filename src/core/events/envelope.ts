import type { EventData, EventType, StoredEvent } from './model.ts';

/**
 * The payload a webhook receives (interface.md, Variant A events): the outbox event's public id,
 * its type, `created` in Unix seconds (the one timestamp of the service that is not ISO 8601) and
 * its `data` unchanged.
 */
export interface WebhookPayload<K extends EventType = EventType> {
  id: string;
  type: K;
  created: number;
  data: EventData<K>;
}

export function webhookPayload(e: StoredEvent): WebhookPayload {
  return { id: e.id, type: e.type, created: Math.floor(Date.parse(e.createdAt) / 1000), data: e.data };
}
