// Generated from openapi/variant-a.json by `npm run openapi`; do not edit.

export interface paths {
    "/vendors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ranked verified vendors
         * @description Verified, scored vendors with a tested purity on record (an approved CoA), by composite score descending (ties: name, then slug). `total` counts them all; a page past the end is empty.
         */
        get: operations["listVendors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vendors/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Vendor report
         * @description Score and its history, CoA evidence and catalog of one vendor (verified or not).
         */
        get: operations["getVendor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/peptides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Peptide library
         * @description Every peptide by name, optionally of one category. `vendor_count` is the length of the peptide’s vendor ranking (`/peptides/{slug}/vendors`). An unknown category gives an empty list.
         */
        get: operations["listPeptides"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/peptides/{slug}/vendors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Vendors of a peptide, ranked
         * @description Verified, scored vendors with a tested purity on record (an approved CoA) listing the peptide, rank 1..n by score descending (ties: name, then slug).
         */
        get: operations["getPeptideVendors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search vendors and peptides
         * @description Full-text search over scored vendors (name, slug, country) and peptides (name, slug, aliases, category). Relevance order, ties by score. Case-, accent- and punctuation-insensitive (`bpc157`, `BPC 157` and `bpc-157` all find BPC-157); prefixes match; one typo is tolerated in words of five letters or more.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coa/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify a certificate of analysis (PDF upload)
         * @description Reads the PDF (off the main thread, with time, page, memory and size limits), extracts what it states and checks it against the lab records on file. `file` and `peptide` are required, `batch_id` and `vendor` optional. The same file with the same fields, uploaded again by the same account, answers the earlier result. A plausible document with no record on file is queued for review (`pending_review`) and shows as `pending` in Variant B's batch lookup. Enterprise plan only.
         */
        post: operations["verifyCoa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/coa/verifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A CoA verification, again
         * @description The result of an earlier upload by the same account, with the review state of the submission it queued (`review`) as it is now. 404 for an id that is not this account's.
         */
        get: operations["getCoaVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's webhook endpoints
         * @description Every endpoint of this account, oldest first, without secrets. Not paged: an account has at most WEBHOOK_MAX_ENDPOINTS (default 20).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Registers an endpoint that receives signed `POST`s for events about this account's vendors (the vendors it owns), of the kinds in `events`. The answer carries the signing `secret`, shown here and never again (a rotation shows the new one). Deliveries follow Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>` (docs/webhooks.md). The URL is checked now (https, public address) and again on every delivery. Enterprise plan only.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook endpoint
         * @description The endpoint and its state: `enabled`, and when disabled why (`disabled_reason`) and since when (`disabled_at`); `failing_since` while deliveries fail. Never the secret.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Deletes the endpoint with its delivery log. Nothing more is sent to it, including what was pending. No body.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Changes `url`, `events`, `description` or `enabled` (at least one; the others stay). The same rules as at registration apply. `enabled: true` on a disabled endpoint clears `disabled_reason`, `disabled_at` and `failing_since`; `enabled: false` disables it with `disabled_reason: "manual"`. The secret does not change (see rotate_secret).
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/webhooks/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's signing secret
         * @description A new secret, shown in this answer only. For `overlap_seconds` (default 86,400, at most 604,800; body optional) every delivery carries two signatures, space-separated: the new secret’s and the old one’s, so a receiver holding either verifies while you deploy the new one. After it only the new secret signs. `overlap_seconds: 0` retires the old secret at once. Rotating again during an overlap replaces the old secret by the one current until now.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event now
         * @description Sends a signed `webhook.test` event (`data: {endpoint_id, message}`) to the endpoint now, whether it is enabled or not, and answers with the attempt: HTTP status, latency, error. The answer is 200 whatever the receiver said; `attempt.error` is null only for a 2xx. The test is logged among the deliveries (settled by its one attempt: `succeeded` or `failed`, never retried; `redeliver` sends it again). A 410 disables the endpoint as any delivery would, and `endpoint` shows it. No body.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An endpoint's delivery log
         * @description The messages to this endpoint, newest first, each with its attempts (time, HTTP status, latency, error, what started it) and, while `pending`, when the next attempt is due. Settled messages are kept 30 days.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one message again now
         * @description Sends the message again now, whatever its status: the same event id (`webhook-id`) and the same body, signed with the current secret(s) and a new timestamp. Answers with the attempt, as `test` does (200 whatever the receiver said). A success settles a pending or failed message as `succeeded`; a failure leaves its status and schedule as they were. No body.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue failed messages again
         * @description Every `failed` message of this endpoint created at or after `since` becomes `pending` again, due at once, and goes through the whole retry schedule again. For after an outage of your receiver: enable the endpoint (PATCH) if it was disabled, then recover.
         */
        post: operations["recoverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's events of the last 30 days
         * @description Events about the vendors this account owns, committed in the last 30 days, newest first, each as its webhooks deliver it (`id`, `type`, `created` in Unix seconds, `data`) with how its messages to this account's endpoints stand (`deliveries`, summed up in `delivery_success`). Lists what happened whether or not an endpoint received it: `delivery_success` is null for an event no endpoint got. `delivery_success=false` finds what to `recover` or `redeliver`. Enterprise plan only.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** ErrorBody */
        ErrorBody: {
            error: {
                /** @description Machine-readable code, e.g. invalid_api_key, not_found, rate_limited. */
                code: string;
                /** @description Human-readable text. */
                message: string;
                /** @description Equals the HTTP status. */
                status: number;
                /** @description Identifies the request in our logs; quote it to support. */
                request_id: string;
            };
        };
        /** VendorListA */
        VendorListA: {
            data: {
                slug: string;
                name: string;
                /** @description Composite score. */
                score: number;
                /** @description Mean tested purity of approved batches, one decimal with ".0" dropped, e.g. "99.1%", "99%". Always present: a vendor without a tested purity on record is not in Variant A’s rankings yet. */
                purity: string;
                verified: boolean;
                /** @description Band of the composite: platinum ≥ 90, gold ≥ 80, silver ≥ 70, bronze below. */
                tier: "platinum" | "gold" | "silver" | "bronze";
                /** @description Country. */
                location: string;
                /** @description The five sub-scores, 0..100 (docs/methodology.md). */
                pillars: {
                    coa: number;
                    purity: number;
                    sentiment: number;
                    transparency: number;
                    experience: number;
                };
            }[];
            /** @description All vendors of the ranking: verified, scored, with a tested purity on record (not the page). */
            total: number;
            /** @description The page returned (1-based). */
            page: number;
        };
        /** VendorDetailA */
        VendorDetailA: {
            slug: string;
            name: string;
            /** @description Composite score. Absent while the vendor is unscored. */
            score?: number;
            /** @description Band of the composite: platinum ≥ 90, gold ≥ 80, silver ≥ 70, bronze below. Absent while unscored. */
            tier?: "platinum" | "gold" | "silver" | "bronze";
            verified: boolean;
            /** @description Composite scores, oldest first. */
            score_history: number[];
            /** @description Approved CoAs (tested batches) on record. */
            coa_count: number;
            /** @description The sentiment pillar. Absent while unscored. */
            sentiment?: number;
            /** @description Names of the peptides the vendor lists. */
            peptide_catalog: string[];
            /** @description Newest 10 approved or pending batches, newest first. */
            recent_coas: {
                batch_id: string;
                /** @description Peptide name. */
                peptide: string;
                /** @description Tested purity, percent; null while pending. */
                purity: number | null;
                /** @description Testing laboratory; null while pending. */
                lab: string | null;
                tested_at: string | null;
                /** @description When the vendor submitted it; null for an approved record imported without one. */
                submitted_at: string | null;
                /** @description verified: tested within 150 days; stale: longer ago; pending: awaiting review. */
                state: "verified" | "stale" | "pending";
            }[];
            /**
             * Format: date-time
             * @description When the vendor was verified. Present only for a verified vendor whose verification time is on record.
             */
            verified_at?: string;
        };
        /** PeptideListA */
        PeptideListA: {
            data: {
                slug: string;
                name: string;
                /** @description Lower-case slug, e.g. healing, metabolic, growth-hormone. */
                category: string;
                /** @description Length of this peptide’s vendor ranking. */
                vendor_count: number;
                /** @description A number followed by a unit, e.g. "1419.5 g/mol". */
                molecular_weight: string;
            }[];
            total: number;
        };
        /** PeptideRankingA */
        PeptideRankingA: {
            /** @description Peptide slug. */
            peptide: string;
            vendors: {
                slug: string;
                score: number;
                /** @description 1..n by score. */
                rank: number;
            }[];
        };
        /** SearchResultA */
        SearchResultA: {
            vendors: {
                slug: string;
                name: string;
                score: number;
                /** @description Band of the composite: platinum ≥ 90, gold ≥ 80, silver ≥ 70, bronze below. */
                tier: "platinum" | "gold" | "silver" | "bronze";
                verified: boolean;
            }[];
            peptides: {
                slug: string;
                name: string;
                category: string;
                vendor_count: number;
            }[];
        };
        /** CoaVerificationA */
        CoaVerificationA: {
            /** @description Identifier of the verification (`ver_` + 32 hex). */
            verification_id: string;
            /** @description The decision table is in docs/methodology.md. */
            status: "verified" | "pending_review" | "mismatch" | "rejected" | "unreadable";
            /** @description How strongly the evidence supports `status`. */
            confidence: number;
            /** @description The document is for the requested peptide. */
            peptide_match: boolean;
            /** @description Purity as the document prints it, e.g. `99.2%`; absent when it prints none. */
            purity_claim?: string;
            /** @description An approved record on file states the same purity (within 0.1 points). */
            purity_verified: boolean;
            notes: {
                code: string;
                message: string;
            }[];
            /** @description What the document states; every key is present, null when the document does not state it. */
            extracted: {
                lab: string | null;
                batch: string | null;
                compound: string | null;
                test_date: string | null;
                test_date_text: string | null;
                method: string | null;
                purity: number | null;
                quantity: string | null;
                label_claim: string | null;
                identity: string | null;
                client: string | null;
                verification_key: string | null;
                verification_url: string | null;
            };
            /** @description The lab's own verification page, when the registry has one. */
            lab_verification_url?: string;
            /** @description The requested peptide (slug). */
            peptide: string;
            /** @description The vendor the verification concerns (slug), when known. */
            vendor?: string;
            /** @description The submission this upload is queued in, and its review state now. */
            review?: {
                state: "pending" | "approved" | "rejected";
                vendor: string;
                batch_id: string;
            };
            /** @description ISO 8601. */
            created_at: string;
        };
        /**
         * WebhookEndpointCreatedA
         * @description Created: the endpoint, with its signing secret (shown in this answer only).
         */
        WebhookEndpointCreatedA: {
            /** @description `ep_` + 24 hex. */
            id: string;
            /** @description The target URL, normalised (`new URL(…).href`). */
            url: string;
            /** @description The subscribed event types, or `["*"]` for every type. */
            events: ("score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply" | "*")[];
            /** @description "" when none was given. */
            description: string;
            /** @description Whether new events are delivered to it. */
            enabled: boolean;
            /** @description Why it is disabled: `gone` (the receiver answered 410), `failing` (no success for 5 days), `manual` (PATCH `enabled: false`); null while enabled. */
            disabled_reason: ("gone" | "failing" | "manual") | null;
            /** @description When it was disabled; null while enabled. */
            disabled_at: string | null;
            /** @description The first failed attempt since the last success; null while deliveries succeed. Five days of failing without a success disables the endpoint. */
            failing_since: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            updated_at: string;
            /** @description The signing secret, `whsec_` + base64 of 32 random bytes. Shown in this answer only (and in a rotation’s): store it now. */
            secret: string;
        };
        /** WebhookEndpointListA */
        WebhookEndpointListA: {
            /** @description Oldest first. Secrets are never listed. */
            data: {
                /** @description `ep_` + 24 hex. */
                id: string;
                /** @description The target URL, normalised (`new URL(…).href`). */
                url: string;
                /** @description The subscribed event types, or `["*"]` for every type. */
                events: ("score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply" | "*")[];
                /** @description "" when none was given. */
                description: string;
                /** @description Whether new events are delivered to it. */
                enabled: boolean;
                /** @description Why it is disabled: `gone` (the receiver answered 410), `failing` (no success for 5 days), `manual` (PATCH `enabled: false`); null while enabled. */
                disabled_reason: ("gone" | "failing" | "manual") | null;
                /** @description When it was disabled; null while enabled. */
                disabled_at: string | null;
                /** @description The first failed attempt since the last success; null while deliveries succeed. Five days of failing without a success disables the endpoint. */
                failing_since: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                created_at: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                updated_at: string;
            }[];
            /** @description Endpoints of this account (at most WEBHOOK_MAX_ENDPOINTS). */
            total: number;
        };
        /** WebhookEndpointA */
        WebhookEndpointA: {
            /** @description `ep_` + 24 hex. */
            id: string;
            /** @description The target URL, normalised (`new URL(…).href`). */
            url: string;
            /** @description The subscribed event types, or `["*"]` for every type. */
            events: ("score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply" | "*")[];
            /** @description "" when none was given. */
            description: string;
            /** @description Whether new events are delivered to it. */
            enabled: boolean;
            /** @description Why it is disabled: `gone` (the receiver answered 410), `failing` (no success for 5 days), `manual` (PATCH `enabled: false`); null while enabled. */
            disabled_reason: ("gone" | "failing" | "manual") | null;
            /** @description When it was disabled; null while enabled. */
            disabled_at: string | null;
            /** @description The first failed attempt since the last success; null while deliveries succeed. Five days of failing without a success disables the endpoint. */
            failing_since: string | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            updated_at: string;
        };
        /** WebhookSecretA */
        WebhookSecretA: {
            /** @description The signing secret, `whsec_` + base64 of 32 random bytes. Shown in this answer only (and in a rotation’s): store it now. */
            secret: string;
            /** @description Until then the old secret signs beside the new one (two signatures, space-separated); null with `overlap_seconds: 0` (retired at once). */
            previous_secret_expires_at: string | null;
        };
        /** WebhookAttemptResultA */
        WebhookAttemptResultA: {
            /** @description The message in the delivery log. */
            delivery_id: string;
            /** @description The event id the receiver got as `webhook-id` (the same on every redelivery). */
            event_id: string;
            /** @description One HTTP request to the receiver. */
            attempt: {
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                attempted_at: string;
                /** @description The receiver's HTTP status; null when none arrived (timeout, refused, connection error). */
                http_status: number | null;
                /** @description From the request to the end of the answer. */
                latency_ms: number;
                /** @description Why the attempt failed, in words; null on success (a 2xx). */
                error: string | null;
                /** @description `scheduled`: the delivery worker (first try or a retry); `redeliver` or `test`: on request. */
                trigger: "scheduled" | "redeliver" | "test";
            };
            /** @description The endpoint as the attempt left it: a 410 disables it at once (`disabled_reason: "gone"`). */
            endpoint: {
                /** @description `ep_` + 24 hex. */
                id: string;
                /** @description The target URL, normalised (`new URL(…).href`). */
                url: string;
                /** @description The subscribed event types, or `["*"]` for every type. */
                events: ("score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply" | "*")[];
                /** @description "" when none was given. */
                description: string;
                /** @description Whether new events are delivered to it. */
                enabled: boolean;
                /** @description Why it is disabled: `gone` (the receiver answered 410), `failing` (no success for 5 days), `manual` (PATCH `enabled: false`); null while enabled. */
                disabled_reason: ("gone" | "failing" | "manual") | null;
                /** @description When it was disabled; null while enabled. */
                disabled_at: string | null;
                /** @description The first failed attempt since the last success; null while deliveries succeed. Five days of failing without a success disables the endpoint. */
                failing_since: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                created_at: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                updated_at: string;
            };
        };
        /** WebhookDeliveryListA */
        WebhookDeliveryListA: {
            /** @description Newest first. */
            data: {
                /** @description `dlv_` + 24 hex. */
                id: string;
                /** @description The event id (`webhook-id`). */
                event_id: string;
                /** @description One of the six kinds, or `webhook.test`. */
                event_type: string;
                status: "pending" | "succeeded" | "failed";
                attempt_count: number;
                /** @description When the next attempt is due while `pending` (while a worker is sending it, when its claim lapses); null once settled. */
                next_attempt_at: string | null;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                created_at: string;
                /** @description Oldest first; the newest 50 at most. */
                attempts: {
                    /**
                     * Format: date-time
                     * @description ISO 8601, UTC, milliseconds.
                     */
                    attempted_at: string;
                    /** @description The receiver's HTTP status; null when none arrived (timeout, refused, connection error). */
                    http_status: number | null;
                    /** @description From the request to the end of the answer. */
                    latency_ms: number;
                    /** @description Why the attempt failed, in words; null on success (a 2xx). */
                    error: string | null;
                    /** @description `scheduled`: the delivery worker (first try or a retry); `redeliver` or `test`: on request. */
                    trigger: "scheduled" | "redeliver" | "test";
                }[];
            }[];
            /** @description Messages that match the filters (not the page). */
            total: number;
            /** @description The page returned (1-based). */
            page: number;
        };
        /** WebhookRecoverResultA */
        WebhookRecoverResultA: {
            /** @description Failed messages now pending again, due at once, from the start of the retry schedule. */
            requeued: number;
        };
        /** AccountEventListA */
        AccountEventListA: {
            /** @description Newest first. */
            data: {
                /** @description The event id, `evt_` + 32 hex: the `webhook-id` of its deliveries. */
                id: string;
                type: "score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply";
                /** @description When the change was committed, Unix seconds (as in the webhook payload). */
                created: number;
                /** @description The kind's payload exactly as delivered (docs/events.md); always has `vendor_slug`. */
                data: {
                    /** @description The vendor the event is about. */
                    vendor_slug: string;
                    previous_score: number;
                    new_score: number;
                    /** @description new_score − previous_score. */
                    delta: number;
                    /** @description Signed change of each pillar that moved; {} when only an override of the score moved. */
                    pillar_changes: {
                        coa?: number;
                        purity?: number;
                        sentiment?: number;
                        transparency?: number;
                        experience?: number;
                    };
                } | {
                    /** @description The vendor the event is about. */
                    vendor_slug: string;
                    previous_tier: "bronze" | "silver" | "gold" | "platinum";
                    new_tier: "bronze" | "silver" | "gold" | "platinum";
                    /** @description The composite that reached the new tier. */
                    score: number;
                } | {
                    /** @description The vendor the event is about. */
                    vendor_slug: string;
                    /** @description The batch id as the vendor wrote it (trimmed). */
                    batch_id: string;
                    peptide_slug: string;
                    peptide_name: string;
                    /** @description Tested purity, percent. */
                    purity: number;
                    /** @description Slug of the lab that tested it. */
                    lab: string;
                    lab_name: string;
                    /** @description e.g. HPLC, HPLC-MS. */
                    test_method: string;
                    /** Format: date-time */
                    tested_at: string;
                } | {
                    /** @description The vendor the event is about. */
                    vendor_slug: string;
                    /** @description The batch id as the vendor wrote it (trimmed). */
                    batch_id: string;
                    peptide_slug: string;
                    peptide_name: string;
                } | {
                    /** @description The vendor the event is about. */
                    vendor_slug: string;
                    review_id: string;
                    rating: number;
                    title: string;
                    body: string;
                    /** @description The reviewer's display name. */
                    author: string;
                    /** Format: date-time */
                    created_at: string;
                } | {
                    /** @description The vendor the event is about. */
                    vendor_slug: string;
                    /** @description The review replied to. */
                    review_id: string;
                    body: string;
                    /** Format: date-time */
                    created_at: string;
                };
                /** @description The vendor the event is about (also `data.vendor_slug`). */
                vendor_slug: string;
                /** @description `true` when every message of the event to this account's endpoints succeeded, `false` while one is pending or has failed, `null` when no endpoint received it (none subscribed, or none existed then). */
                delivery_success: boolean | null;
                /** @description The event's messages to this account's endpoints, by status. */
                deliveries: {
                    succeeded: number;
                    pending: number;
                    failed: number;
                };
            }[];
            /** @description Events that match the filters (not the page). */
            total: number;
            /** @description The page returned (1-based). */
            page: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Identifies this body; send it back as `If-None-Match` to get a 304 while it holds. */
        ETag: string;
        /** @description Requests the key may make in the variant's window. */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the window after this one. */
        "X-RateLimit-Remaining": number;
        /** @description When the window frees a request, Unix time in seconds. */
        "X-RateLimit-Reset": number;
        /** @description Seconds until a request will be admitted again. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listVendors: {
        parameters: {
            query?: {
                /** @description Page number, 1-based (default 1); at most 2,147,483,647. */
                page?: number;
                /** @description Page size, 1..200 (default 50). */
                per_page?: number;
            };
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VendorListA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`). */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include this endpoint (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getVendor: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Vendor slug, lower case, as the lists give it. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VendorDetailA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`). */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include this endpoint (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listPeptides: {
        parameters: {
            query?: {
                /** @description Category slug, e.g. healing. */
                category?: string;
            };
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PeptideListA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`). */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include this endpoint (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPeptideVendors: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Peptide slug, lower case, as the lists give it. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PeptideRankingA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`). */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include this endpoint (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No peptide with that slug (`not_found`). */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    search: {
        parameters: {
            query: {
                /** @description The query, 1..200 characters. */
                q: string;
                /** @description Results per kind, 1..50 (default 10). */
                limit?: number;
            };
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResultA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`). */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include this endpoint (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    verifyCoa: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The certificate of analysis, a PDF (checked by its magic bytes), at most COA_MAX_BYTES (10 MB).
                     */
                    file: string;
                    /** @description The peptide: slug, name or alias. */
                    peptide: string;
                    /** @description The batch the document should be for. */
                    batch_id?: string;
                    /** @description The vendor (slug). */
                    vendor?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CoaVerificationA"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`). */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include CoA verification: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The file is larger than COA_MAX_BYTES (default 10 MB) (`file_too_large`), refused before the body is read when Content-Length says so. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not multipart/form-data, or `file` is not a PDF by its magic bytes (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many uploads are being read right now, the server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCoaVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A `verification_id`. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CoaVerificationA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`). */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include CoA verification: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No verification with this id belongs to this account (`not_found`). */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointListA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where deliveries go: an absolute `https` URL whose host is or resolves only to public addresses (private, loopback, link-local, CGNAT, multicast, unique-local IPv6 and IPv4-embedding IPv6 are refused), without user name, password or `#fragment`. `http` and private targets only when the service runs with `WEBHOOK_ALLOW_PRIVATE_URLS=true` (development). */
                    url: string;
                    /** @description Event types to receive: a non-empty list of the six kinds (docs/events.md; duplicates are dropped), or `["*"]` for every kind, including kinds added later. `"*"` cannot be mixed with kinds. */
                    events: ("score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply" | "*")[];
                    /** @description Free text for you, at most 500 characters; "" for none. */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created: the endpoint, with its signing secret (shown in this answer only). */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointCreatedA"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The account has WEBHOOK_MAX_ENDPOINTS (default 20) endpoints already (`conflict`). */
            409: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is larger than this endpoint accepts (`file_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not application/json, or has no Content-Type (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Where deliveries go: an absolute `https` URL whose host is or resolves only to public addresses (private, loopback, link-local, CGNAT, multicast, unique-local IPv6 and IPv4-embedding IPv6 are refused), without user name, password or `#fragment`. `http` and private targets only when the service runs with `WEBHOOK_ALLOW_PRIVATE_URLS=true` (development). */
                    url?: string;
                    /** @description Event types to receive: a non-empty list of the six kinds (docs/events.md; duplicates are dropped), or `["*"]` for every kind, including kinds added later. `"*"` cannot be mixed with kinds. */
                    events?: ("score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply" | "*")[];
                    /** @description Free text for you, at most 500 characters; "" for none. */
                    description?: string;
                    /** @description `false` disables the endpoint (`disabled_reason: "manual"`); `true` enables it again and clears `disabled_reason`, `disabled_at` and `failing_since`. Its pending messages are then sent. */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointA"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is larger than this endpoint accepts (`file_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not application/json, or has no Content-Type (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description How long the old secret keeps signing beside the new one, in seconds: 0..604800 (7 days), default 86400 (a day). 0 retires it at once (a leaked secret). */
                    overlap_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretA"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is larger than this endpoint accepts (`file_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not application/json, or has no Content-Type (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAttemptResultA"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description `pending` (waiting for its first or next attempt), `succeeded` (a 2xx arrived) or `failed` (retries exhausted, or a test that failed). */
                status?: "pending" | "succeeded" | "failed";
                /** @description Only messages of this event type. */
                event_type?: "score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply" | "webhook.test";
                /** @description Page number, 1-based (default 1); at most 2,147,483,647. A page past the end is empty. */
                page?: number;
                /** @description Page size, 1..100 (default 20). */
                per_page?: number;
            };
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryListA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
                /** @description A delivery id from the delivery log, `dlv_` + 24 lower-case hex digits. An id of another form is 400; a well-formed id that is not one of this endpoint's deliveries is 404. */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAttemptResultA"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. Or the delivery is not one of this endpoint's. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    recoverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint id, `ep_` + 24 lower-case hex digits. An id of another form is 400 (`invalid_parameter`); a well-formed id that is not one of this account's endpoints is 404. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description ISO 8601 with a time zone, not in the future: every `failed` message of this endpoint created at or after it is queued again.
                     */
                    since: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecoverResultA"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it, and nothing is changed. A malformed id (not `ep_` + 24 hex, `dlv_` + 24 hex) is 400, not 404. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint with this id belongs to this account (`not_found`): another account's endpoint is 404 exactly like one that does not exist. */
            404: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request body is larger than this endpoint accepts (`file_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not application/json, or has no Content-Type (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Only events of this type. */
                type?: "score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply";
                /** @description Only events about this vendor (slug, lower case). A vendor the account does not own lists nothing, as one that does not exist. */
                vendor?: string;
                /** @description `true`: events every message of which (to this account’s endpoints) succeeded; `false`: events with at least one message pending or failed. Events no endpoint received (`delivery_success: null`) are left out by either value. */
                delivery_success?: "true" | "false";
                /** @description Page number, 1-based (default 1); at most 2,147,483,647. A page past the end is empty. */
                page?: number;
                /** @description Page size, 1..100 (default 20). */
                per_page?: number;
            };
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountEventListA"];
                };
            };
            /** @description Not modified: `If-None-Match` names the current ETag. No body; not counted against the quota. */
            304: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, malformed, unknown or revoked API key (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key's plan does not include webhooks: Enterprise only (`plan_required`). */
            403: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request did not arrive in time (`request_timeout`; decision 0017). */
            408: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Over the rate limit (`rate_limited`); see `Retry-After`. */
            429: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request headers are too large (`headers_too_large`). */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Internal failure (`internal_error`). */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The server is shutting down, or the database is unavailable for a moment (`service_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}
