import { type Static, Type as T, type TSchema } from '@sinclair/typebox';
import { EVENT_DATA, EVENT_TYPES } from '../../core/events/model.ts';
import { SLUG_PATTERN } from '../../core/import/records.ts';
import { INTEGER_PARAM_MAX } from '../../core/validation/integers.ts';
import {
  DEFAULT_OVERLAP_SECONDS,
  MAX_DESCRIPTION_LENGTH,
  MAX_OVERLAP_SECONDS,
  MAX_URL_LENGTH,
} from '../../core/webhooks/endpoint-rules.ts';
import { TEST_EVENT_TYPE } from '../../core/webhooks/model.ts';

/*
 * Variant A's webhook endpoints and event log (issue [7]; docs/webhooks.md). The same schemas
 * validate the requests and write the OpenAPI document.
 *
 * Request schemas avoid `anyOf` for enums (as the operator API's do): the service's Ajv coerces
 * types, and a `{type:'string', enum}` gives the message "must be one of …". JSON bodies are
 * checked for exact JSON types before the schema runs (strictJsonBody), so `"enabled": "false"` is
 * a 400, not a coerced `false`.
 */

// ---- building blocks ------------------------------------------------------------------------

/** Ids as the core makes them (core/webhooks/secrets.ts): a prefix and 24 lower-case hex digits. */
export const ENDPOINT_ID_PATTERN = '^ep_[0-9a-f]{24}$';
export const DELIVERY_ID_PATTERN = '^dlv_[0-9a-f]{24}$';
/** `whsec_` + base64 of 32 random bytes (Standard Webhooks); at least 24 bytes is 32 characters. */
export const SECRET_PATTERN = '^whsec_[A-Za-z0-9+/]{32,}={0,2}$';

/** Webhook lists page as Variant A's lists do (`page`, `per_page`), with a smaller page. */
export const WEBHOOK_PAGE_SIZE = { default: 20, max: 100 } as const;

const StringEnum = <V extends string>(values: readonly V[], description?: string) =>
  T.Unsafe<V>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });
const LiteralUnion = <V extends string>(values: readonly V[], description?: string) =>
  T.Union(
    values.map((v) => T.Literal(v)),
    description ? { description } : {},
  );
const Nullable = <S extends TSchema>(s: S, description?: string) =>
  T.Union([s, T.Null()], description ? { description } : {});

const Timestamp = T.String({ format: 'date-time', description: 'ISO 8601, UTC, milliseconds.' });

const EVENTS_DOC =
  'Event types to receive: a non-empty list of the six kinds (docs/events.md; duplicates are dropped), or ' +
  '`["*"]` for every kind, including kinds added later. `"*"` cannot be mixed with kinds.';
const URL_DOC =
  'Where deliveries go: an absolute `https` URL whose host is or resolves only to public addresses (private, ' +
  'loopback, link-local, CGNAT, multicast, unique-local IPv6 and IPv4-embedding IPv6 are refused), without ' +
  'user name, password or `#fragment`. `http` and private targets only when the service runs with ' +
  '`WEBHOOK_ALLOW_PRIVATE_URLS=true` (development).';

const Url = T.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: URL_DOC });
const EventsInput = T.Array(StringEnum([...EVENT_TYPES, '*'] as const), {
  minItems: 1,
  maxItems: 50,
  description: EVENTS_DOC,
});
const Description = T.String({
  maxLength: MAX_DESCRIPTION_LENGTH,
  description: `Free text for you, at most ${MAX_DESCRIPTION_LENGTH} characters; "" for none.`,
});

const PageQuery = {
  page: T.Integer({
    minimum: 1,
    maximum: INTEGER_PARAM_MAX,
    default: 1,
    description: 'Page number, 1-based (default 1); at most 2,147,483,647. A page past the end is empty.',
  }),
  per_page: T.Integer({
    minimum: 1,
    maximum: WEBHOOK_PAGE_SIZE.max,
    default: WEBHOOK_PAGE_SIZE.default,
    description: `Page size, 1..${WEBHOOK_PAGE_SIZE.max} (default ${WEBHOOK_PAGE_SIZE.default}).`,
  }),
};

// ---- requests -------------------------------------------------------------------------------

export const EndpointParams = T.Object({
  id: T.String({
    pattern: ENDPOINT_ID_PATTERN,
    description:
      'The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); ' +
      "a well-formed id that is not one of this account's endpoints is 404.",
  }),
});
export type EndpointParams = Static<typeof EndpointParams>;

export const DeliveryParams = T.Object({
  id: EndpointParams.properties.id,
  delivery_id: T.String({
    pattern: DELIVERY_ID_PATTERN,
    description:
      'A delivery id from the delivery log, `dlv_` + 24 lower-case hex digits. An id of another form is 400; ' +
      "a well-formed id that is not one of this endpoint's deliveries is 404.",
  }),
});
export type DeliveryParams = Static<typeof DeliveryParams>;

export const CreateWebhookBody = T.Object(
  { url: Url, events: EventsInput, description: T.Optional(Description) },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = T.Object(
  {
    url: T.Optional(Url),
    events: T.Optional(EventsInput),
    description: T.Optional(Description),
    enabled: T.Optional(
      T.Boolean({
        description:
          '`false` disables the endpoint (`disabled_reason: "manual"`); `true` enables it again and clears ' +
          '`disabled_reason`, `disabled_at` and `failing_since`. Its pending messages are then sent.',
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'At least one field; those given replace the current values, the others stay.',
  },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const RotateSecretBody = T.Object(
  {
    overlap_seconds: T.Optional(
      T.Integer({
        minimum: 0,
        maximum: MAX_OVERLAP_SECONDS,
        description:
          `How long the old secret keeps signing beside the new one, in seconds: 0..${MAX_OVERLAP_SECONDS} ` +
          `(7 days), default ${DEFAULT_OVERLAP_SECONDS} (a day). 0 retires it at once (a leaked secret).`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Optional: no body (or `{}`) rotates with the default overlap.',
  },
);
export type RotateSecretBody = Static<typeof RotateSecretBody>;

export const RecoverBody = T.Object(
  {
    since: T.String({
      format: 'date-time',
      maxLength: 40,
      description:
        'ISO 8601 with a time zone, not in the future: every `failed` message of this endpoint created at or ' +
        'after it is queued again.',
    }),
  },
  { additionalProperties: false },
);
export type RecoverBody = Static<typeof RecoverBody>;

export const MESSAGE_STATUSES = ['pending', 'succeeded', 'failed'] as const;
const DELIVERY_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;

export const DeliveriesQuery = T.Object({
  status: T.Optional(
    StringEnum(
      MESSAGE_STATUSES,
      '`pending` (waiting for its first or next attempt), `succeeded` (a 2xx arrived) or `failed` (retries ' +
        'exhausted, or a test that failed).',
    ),
  ),
  event_type: T.Optional(StringEnum(DELIVERY_EVENT_TYPES, 'Only messages of this event type.')),
  ...PageQuery,
});
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const EventsQuery = T.Object({
  type: T.Optional(StringEnum(EVENT_TYPES, 'Only events of this type.')),
  vendor: T.Optional(
    T.String({
      minLength: 1,
      maxLength: 64,
      pattern: SLUG_PATTERN.source,
      description:
        'Only events about this vendor (slug, lower case). A vendor the account does not own lists nothing, as one that does not exist.',
    }),
  ),
  delivery_success: T.Optional(
    StringEnum(
      ['true', 'false'] as const,
      '`true`: events every message of which (to this account’s endpoints) succeeded; `false`: events with ' +
        'at least one message pending or failed. Events no endpoint received (`delivery_success: null`) are ' +
        'left out by either value.',
    ),
  ),
  ...PageQuery,
});
export type EventsQuery = Static<typeof EventsQuery>;

// ---- responses ------------------------------------------------------------------------------

/** An endpoint's fields; each top-level schema below spells them out so the document is self-contained. */
const endpointFields = {
  id: T.String({ pattern: ENDPOINT_ID_PATTERN, description: '`ep_` + 24 hex.' }),
  url: T.String({ description: 'The target URL, normalised (`new URL(…).href`).' }),
  events: T.Array(LiteralUnion([...EVENT_TYPES, '*'] as const), {
    minItems: 1,
    description: 'The subscribed event types, or `["*"]` for every type.',
  }),
  description: T.String({ description: '"" when none was given.' }),
  enabled: T.Boolean({ description: 'Whether new events are delivered to it.' }),
  disabled_reason: Nullable(
    LiteralUnion(['gone', 'failing', 'manual'] as const),
    'Why it is disabled: `gone` (the receiver answered 410), `failing` (no success for 5 days), `manual` ' +
      '(PATCH `enabled: false`); null while enabled.',
  ),
  disabled_at: Nullable(Timestamp, 'When it was disabled; null while enabled.'),
  failing_since: Nullable(
    Timestamp,
    'The first failed attempt since the last success; null while deliveries succeed. Five days of failing ' +
      'without a success disables the endpoint.',
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
};

const Endpoint = (options: { $id?: string; title?: string; description?: string } = {}) =>
  T.Object(endpointFields, options);

export const WebhookEndpointA = Endpoint({ $id: 'WebhookEndpointA', title: 'WebhookEndpointA' });

export const WebhookEndpointCreatedA = T.Object(
  {
    ...endpointFields,
    secret: T.String({
      pattern: SECRET_PATTERN,
      description:
        'The signing secret, `whsec_` + base64 of 32 random bytes. Shown in this answer only (and in a ' +
        'rotation’s): store it now.',
    }),
  },
  {
    $id: 'WebhookEndpointCreatedA',
    title: 'WebhookEndpointCreatedA',
    description: 'Created: the endpoint, with its signing secret (shown in this answer only).',
  },
);

export const WebhookEndpointListA = T.Object(
  {
    data: T.Array(Endpoint(), { description: 'Oldest first. Secrets are never listed.' }),
    total: T.Integer({
      minimum: 0,
      description: 'Endpoints of this account (at most WEBHOOK_MAX_ENDPOINTS).',
    }),
  },
  { $id: 'WebhookEndpointListA', title: 'WebhookEndpointListA' },
);

export const WebhookSecretA = T.Object(
  {
    secret: WebhookEndpointCreatedA.properties.secret,
    previous_secret_expires_at: Nullable(
      Timestamp,
      'Until then the old secret signs beside the new one (two signatures, space-separated); null with ' +
        '`overlap_seconds: 0` (retired at once).',
    ),
  },
  { $id: 'WebhookSecretA', title: 'WebhookSecretA' },
);

const Attempt = T.Object(
  {
    attempted_at: Timestamp,
    http_status: Nullable(
      T.Integer({ minimum: 100, maximum: 599 }),
      "The receiver's HTTP status; null when none arrived (timeout, refused, connection error).",
    ),
    latency_ms: T.Integer({ minimum: 0, description: 'From the request to the end of the answer.' }),
    error: Nullable(T.String(), 'Why the attempt failed, in words; null on success (a 2xx).'),
    trigger: LiteralUnion(
      ['scheduled', 'redeliver', 'test'] as const,
      '`scheduled`: the delivery worker (first try or a retry); `redeliver` or `test`: on request.',
    ),
  },
  { description: 'One HTTP request to the receiver.' },
);

export const WebhookAttemptResultA = T.Object(
  {
    delivery_id: T.String({ pattern: DELIVERY_ID_PATTERN, description: 'The message in the delivery log.' }),
    event_id: T.String({
      description: 'The event id the receiver got as `webhook-id` (the same on every redelivery).',
    }),
    attempt: Attempt,
    endpoint: Endpoint({
      description:
        'The endpoint as the attempt left it: a 410 disables it at once (`disabled_reason: "gone"`).',
    }),
  },
  { $id: 'WebhookAttemptResultA', title: 'WebhookAttemptResultA' },
);

const Delivery = T.Object({
  id: T.String({ pattern: DELIVERY_ID_PATTERN, description: '`dlv_` + 24 hex.' }),
  event_id: T.String({ description: 'The event id (`webhook-id`).' }),
  event_type: T.String({ description: `One of the six kinds, or \`${TEST_EVENT_TYPE}\`.` }),
  status: LiteralUnion(MESSAGE_STATUSES),
  attempt_count: T.Integer({ minimum: 0 }),
  next_attempt_at: Nullable(
    Timestamp,
    'When the next attempt is due while `pending` (while a worker is sending it, when its claim lapses); ' +
      'null once settled.',
  ),
  created_at: Timestamp,
  attempts: T.Array(Attempt, { description: 'Oldest first; the newest 50 at most.' }),
});

export const WebhookDeliveryListA = T.Object(
  {
    data: T.Array(Delivery, { description: 'Newest first.' }),
    total: T.Integer({ minimum: 0, description: 'Messages that match the filters (not the page).' }),
    page: T.Integer({ description: 'The page returned (1-based).' }),
  },
  { $id: 'WebhookDeliveryListA', title: 'WebhookDeliveryListA' },
);

export const WebhookRecoverResultA = T.Object(
  {
    requeued: T.Integer({
      minimum: 0,
      description: 'Failed messages now pending again, due at once, from the start of the retry schedule.',
    }),
  },
  { $id: 'WebhookRecoverResultA', title: 'WebhookRecoverResultA' },
);

const AccountEvent = T.Object({
  id: T.String({ description: 'The event id, `evt_` + 32 hex: the `webhook-id` of its deliveries.' }),
  type: LiteralUnion(EVENT_TYPES),
  created: T.Integer({
    description: 'When the change was committed, Unix seconds (as in the webhook payload).',
  }),
  data: T.Union(Object.values(EVENT_DATA), {
    description: "The kind's payload exactly as delivered (docs/events.md); always has `vendor_slug`.",
  }),
  vendor_slug: T.String({ description: 'The vendor the event is about (also `data.vendor_slug`).' }),
  delivery_success: Nullable(
    T.Boolean(),
    "`true` when every message of the event to this account's endpoints succeeded, `false` while one is " +
      'pending or has failed, `null` when no endpoint received it (none subscribed, or none existed then).',
  ),
  deliveries: T.Object(
    {
      succeeded: T.Integer({ minimum: 0 }),
      pending: T.Integer({ minimum: 0 }),
      failed: T.Integer({ minimum: 0 }),
    },
    { description: "The event's messages to this account's endpoints, by status." },
  ),
});

export const AccountEventListA = T.Object(
  {
    data: T.Array(AccountEvent, { description: 'Newest first.' }),
    total: T.Integer({ minimum: 0, description: 'Events that match the filters (not the page).' }),
    page: T.Integer({ description: 'The page returned (1-based).' }),
  },
  { $id: 'AccountEventListA', title: 'AccountEventListA' },
);
