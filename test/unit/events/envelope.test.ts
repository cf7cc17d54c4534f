import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { webhookPayload } from '../../../src/core/events/envelope.ts';
import { EVENT_DATA, type StoredEvent } from '../../../src/core/events/model.ts';

describe('webhookPayload', () => {
  it('is the spec envelope {id, type, created (Unix seconds), data}', () => {
    const stored: StoredEvent = {
      seq: 7,
      id: 'evt_0123456789abcdef0123456789abcdef',
      vendorSlug: 'apex',
      createdAt: '2026-06-01T12:00:00.999Z',
      type: 'score.changed',
      data: {
        vendor_slug: 'apex',
        previous_score: 61,
        new_score: 48,
        delta: -13,
        pillar_changes: { coa: -50 },
      },
    };
    const payload = webhookPayload(stored);
    expect(payload).toEqual({
      id: 'evt_0123456789abcdef0123456789abcdef',
      type: 'score.changed',
      // 2026-06-01T12:00:00Z, the milliseconds cut (not rounded up)
      created: 1780315200,
      data: stored.data,
    });
    expect(Object.keys(payload)).toEqual(['id', 'type', 'created', 'data']);
    expect(Value.Check(EVENT_DATA['score.changed'], payload.data)).toBe(true);
  });
});
