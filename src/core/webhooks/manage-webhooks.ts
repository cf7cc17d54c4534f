import { type Clock, DAY_MS, isoTime } from '../clock.ts';
import { DomainError, invalidParameter } from '../errors.ts';
import { newEventId } from '../events/ids.ts';
import type { EventType } from '../events/model.ts';
import { type AttemptPolicy, attemptOnce } from './attempt.ts';
import { checkDescription, checkEvents, checkOverlap, checkUrl, type UrlPolicy } from './endpoint-rules.ts';
import { ManualSendGate, type ManualSendLimits } from './manual-sends.ts';
import {
  type Attempt,
  type Delivery,
  type MessageStatus,
  TEST_EVENT_TYPE,
  type WebhookEndpoint,
  type WebhookSender,
} from './model.ts';
import type { AccountEvent, AttemptRecord, EndpointChanges, SendableMessage, WebhookStore } from './ports.ts';
import { newDeliveryId, newEndpointId, newSecret } from './secrets.ts';

/** How far back an account's event log reaches (the issue: the last 30 days). */
export const EVENT_LOG_DAYS = 30;

export interface WebhooksDeps {
  store: WebhookStore;
  sender: WebhookSender;
  clock: Clock;
  urls: UrlPolicy;
  policy: AttemptPolicy;
  maxEndpointsPerAccount: number;
  /** Bounds on test and redeliver (manual-sends.ts); the defaults unless a test narrows them. */
  manualSends?: ManualSendLimits;
}

export interface EndpointInput {
  url: string;
  events: readonly string[];
  description?: string;
}

export interface EndpointPatch {
  url?: string;
  events?: readonly string[];
  description?: string;
  enabled?: boolean;
}

/** An attempt made on request (test, redeliver), with the message it belongs to. */
export interface AttemptAnswer {
  deliveryId: string;
  eventId: string;
  attempt: Attempt;
  /** The endpoint as the attempt left it (a 410 disables it at once). */
  endpoint: WebhookEndpoint;
}

/**
 * The account side of webhooks (issue [7]): endpoints, secrets, the delivery log, redelivery,
 * recovery and the event log. An account sees and changes only its own endpoints: another's is
 * `not_found`, exactly like one that does not exist. Delivery itself is the worker's (src/worker/).
 */
export class Webhooks {
  private readonly manual: ManualSendGate;

  constructor(private readonly d: WebhooksDeps) {
    this.manual = new ManualSendGate(() => d.clock.now(), d.manualSends);
  }

  async create(
    accountId: number,
    input: EndpointInput,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const events = checkEvents(input.events);
    const description = checkDescription(input.description ?? '');
    const url = await checkUrl(input.url, this.d.urls);
    const now = isoTime(this.d.clock.now());
    const endpoint: WebhookEndpoint = {
      id: newEndpointId(),
      accountId,
      url,
      events,
      description,
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    const secret = newSecret();
    // Counted and inserted under the account's lock: concurrent creates cannot pass the cap together.
    if (!(await this.d.store.insertEndpoint(endpoint, secret, this.d.maxEndpointsPerAccount))) {
      throw new DomainError(
        'conflict',
        `An account may register at most ${this.d.maxEndpointsPerAccount} webhook endpoints: delete one first.`,
      );
    }
    return { endpoint, secret };
  }

  list(accountId: number): Promise<WebhookEndpoint[]> {
    return this.d.store.listEndpoints(accountId);
  }

  async get(accountId: number, id: string): Promise<WebhookEndpoint> {
    return (await this.d.store.getEndpoint(accountId, id)) ?? missing(id);
  }

  /** Enabling clears why it was disabled and its failure streak; disabling is `manual`. */
  async update(accountId: number, id: string, patch: EndpointPatch): Promise<WebhookEndpoint> {
    const c: EndpointChanges = {};
    if (patch.events !== undefined) c.events = checkEvents(patch.events);
    if (patch.description !== undefined) c.description = checkDescription(patch.description);
    if (patch.url !== undefined) c.url = await checkUrl(patch.url, this.d.urls);
    const current = await this.get(accountId, id);
    if (patch.enabled === true && !current.enabled) {
      Object.assign(c, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    } else if (patch.enabled === false && current.enabled) {
      Object.assign(c, { enabled: false, disabledReason: 'manual', disabledAt: isoTime(this.d.clock.now()) });
    }
    const now = isoTime(this.d.clock.now());
    return (await this.d.store.updateEndpoint(accountId, id, c, now)) ?? missing(id);
  }

  async remove(accountId: number, id: string): Promise<void> {
    if (!(await this.d.store.deleteEndpoint(accountId, id))) missing(id);
  }

  /**
   * A new secret, shown once. The old one keeps signing beside it for `overlapSeconds` (default a
   * day, at most 7 days; 0 retires it at once), so receivers can switch without missing a delivery.
   */
  async rotateSecret(
    accountId: number,
    id: string,
    overlapSeconds?: number,
  ): Promise<{ secret: string; previousSecretExpiresAt: string | null }> {
    const overlap = checkOverlap(overlapSeconds);
    await this.get(accountId, id);
    const nowMs = this.d.clock.now();
    const until = overlap > 0 ? isoTime(nowMs + overlap * 1000) : null;
    const secret = newSecret();
    await this.d.store.rotateSecret(id, secret, until, isoTime(nowMs));
    return { secret, previousSecretExpiresAt: until };
  }

  /** Sends a signed `webhook.test` event now, logged among the deliveries; answers with the attempt. */
  async test(accountId: number, id: string): Promise<AttemptAnswer> {
    const endpoint = await this.get(accountId, id);
    const secrets = (await this.d.store.secrets(id)) ?? missing(id);
    const nowMs = this.d.clock.now();
    const eventId = newEventId();
    const payload = JSON.stringify({
      id: eventId,
      type: TEST_EVENT_TYPE,
      created: Math.floor(nowMs / 1000),
      data: {
        endpoint_id: id,
        message: 'A test event from PureRank: your endpoint receives and verifies webhooks.',
      },
    });
    const m: SendableMessage = {
      id: newDeliveryId(),
      endpointId: id,
      eventId,
      eventType: TEST_EVENT_TYPE,
      payload,
      status: 'pending',
      attempts: 0,
      url: endpoint.url,
      secrets,
    };
    // Inside the gate: a refused test leaves no message behind.
    return this.manual.run(accountId, async () => {
      await this.d.store.insertSettled({ ...m, createdAt: isoTime(nowMs) });
      return this.sendNow(accountId, endpoint, m, 'test');
    });
  }

  async deliveries(
    accountId: number,
    id: string,
    q: { status?: MessageStatus; eventType?: string; limit: number; offset: number },
  ): Promise<{ total: number; items: Delivery[] }> {
    await this.get(accountId, id);
    return this.d.store.listDeliveries(id, q);
  }

  /** Sends one message again now: the same event id and body, signed with the current secrets. */
  async redeliver(accountId: number, id: string, deliveryId: string): Promise<AttemptAnswer> {
    const endpoint = await this.get(accountId, id);
    const m = await this.d.store.sendable(id, deliveryId);
    if (!m)
      throw new DomainError('not_found', `Delivery '${deliveryId}' does not exist for endpoint '${id}'.`);
    return this.manual.run(accountId, () => this.sendNow(accountId, endpoint, m, 'redeliver'));
  }

  /** Failed messages created since `since` are tried again, from the start of the schedule. */
  async recover(accountId: number, id: string, since: string): Promise<{ requeued: number }> {
    const sinceMs = Date.parse(since);
    const nowMs = this.d.clock.now();
    // A zone is required: without one, Date.parse would read the server's local time.
    if (!/^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/i.test(since) || Number.isNaN(sinceMs)) {
      throw invalidParameter(
        'since',
        'must be an ISO 8601 timestamp with a zone, e.g. 2026-11-20T00:00:00Z.',
      );
    }
    if (sinceMs > nowMs) throw invalidParameter('since', 'must not be in the future.');
    await this.get(accountId, id);
    return { requeued: await this.d.store.requeueFailed(id, isoTime(sinceMs), nowMs) };
  }

  /** The account's events of the last 30 days: the vendors it owns, newest first. */
  events(
    accountId: number,
    q: { type?: EventType; vendorSlug?: string; deliverySuccess?: boolean; limit: number; offset: number },
  ): Promise<{ total: number; items: AccountEvent[] }> {
    const since = isoTime(this.d.clock.now() - EVENT_LOG_DAYS * DAY_MS);
    return this.d.store.listEvents({ ...q, accountId, since });
  }

  private async sendNow(
    accountId: number,
    endpoint: WebhookEndpoint,
    m: SendableMessage,
    trigger: 'test' | 'redeliver',
  ): Promise<AttemptAnswer> {
    const record: AttemptRecord = await attemptOnce(
      { ...m, url: endpoint.url },
      { failingSince: endpoint.failingSince },
      { sender: this.d.sender, nowMs: () => this.d.clock.now(), policy: this.d.policy },
      trigger,
      null,
    );
    await this.d.store.record(record);
    return {
      deliveryId: m.id,
      eventId: m.eventId,
      attempt: record.attempt,
      endpoint: (await this.d.store.getEndpoint(accountId, endpoint.id)) ?? endpoint,
    };
  }
}

const missing = (id: string): never => {
  throw new DomainError('not_found', `Webhook endpoint '${id}' does not exist.`);
};
