// Generated from openapi/admin.json by `npm run openapi`; do not edit.

export interface paths {
    "/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import JSON Lines
         * @description Loads the JSON Lines format of docs/import-format.md. All or nothing: any bad line rejects the file with its bad lines counted and the first 1,000 errors listed, and nothing is written. Idempotent (upserts by natural key). The write is one transaction, during which a SQLite server answers nothing else: large files belong in `purerank import FILE` (docs/operator-api.md).
         */
        post: operations["importData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List accounts */
        get: operations["listAccounts"];
        put?: never;
        /**
         * Create an account
         * @description Plans: `free`, `pro`, `enterprise`, `custom` (per-account limits). A taken name is 409.
         */
        post: operations["createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/accounts/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an account's plan or limits
         * @description Takes effect on the next request of any of its keys. At least one of `plan`, `rateLimitA`, `rateLimitB`.
         */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/accounts/{name}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an account's keys
         * @description Id, display prefix, label, created, revoked. Never the key itself.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key
         * @description The response carries the key. It is shown this once: only its hash is stored.
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/keys/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key
         * @description By key id, display prefix (refused when it names two live keys) or the full key, in the body. The key answers 401 from its next request.
         */
        post: operations["revokeKey"];
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
         * Vendor, as operators see it
         * @description Stored flags, pillars computed from evidence, effective pillars and score (overrides applied), overrides with who, when and why, and the score history with the reason of each entry.
         */
        get: operations["getVendor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Verify a vendor, flag it pending, or change its listing plan
         * @description At least one of `verified`, `pending`, `listingPlan`. Verifying stamps `verifiedAt` (now); unverifying clears it. Only fields that differ from the stored state are written; when none does, nothing is written and `changed` is false.
         */
        patch: operations["updateVendor"];
        trace?: never;
    };
    "/vendors/{slug}/claim": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Give a vendor's profile to an account, or release it
         * @description The owning account may reply to the vendor's reviews; a claimed vendor shows `claimed: true` in price tables. `account: null` releases the claim. An unknown account is 400. Claiming for the current owner writes nothing (`changed` false).
         */
        put: operations["claimVendor"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vendors/{slug}/listings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept a vendor's live listing feed
         * @description A batch of price rows, each written as a `live` row of the vendor for its peptide and vial size (replacing the baseline row of the same vial in price tables). All or nothing: one bad row (e.g. an unknown peptide) rejects the feed and nothing is written. Rows are stale 72 h after `updatedAt`.
         */
        post: operations["putListings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/overrides": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List overrides
         * @description Every override in force, with who set it, when and why. `vendor` narrows to one vendor.
         */
        get: operations["listOverrides"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vendors/{slug}/overrides/{field}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an override
         * @description Pins a pillar (`coa`, `purity`, `sentiment`, `transparency`, `experience`) or the composite (`score`) to `value`, replacing any override of that field. The response shows the score it moved.
         */
        put: operations["setOverride"];
        post?: never;
        /**
         * Clear an override
         * @description The field goes back to its computed value. The override (who set it, when, why) and who cleared it, when and the optional `reason` (query parameter or body, not both) are kept in the operator decision log.
         */
        delete: operations["clearOverride"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reviews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a review
         * @description Writes a `review.new` event; the sentiment pillar follows.
         */
        post: operations["addReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reviews/{id}/reply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reply to a review for the vendor's owner
         * @description One reply per review, written by the account that claimed the reviewed vendor (another account is 400 naming `account`). Writes a `review.reply` event.
         */
        post: operations["replyToReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Pending CoA submissions
         * @description Oldest submission first. A non-integer or out-of-range `limit`/`offset` is 400.
         */
        get: operations["listPendingBatches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vendors/{slug}/batches/{batchId}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a pending batch
         * @description The batch becomes evidence: the vendor is recomputed (the response shows the score it moved), and `coa.approved` (plus `score.changed` when the composite moved) goes to the outbox. An approved batch needs purity, lab, testMethod and testedAt: what the submission lacks, send here.
         */
        post: operations["approveBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vendors/{slug}/batches/{batchId}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a pending batch
         * @description A rejected submission is no evidence (a batch lookup answers `missing`); `coa.rejected` goes to the outbox. The decision is kept in the operator decision log with `X-Operator`, the time and the optional `reason`. The body is optional.
         */
        post: operations["rejectBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scores/recompute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recompute every score
         * @description Recomputes all vendors from the evidence as of now (pillars age: CoA recency, experience), in one transaction, with history entries and events for what moved. No body.
         */
        post: operations["recomputeScores"];
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
         * Read the outbox of events
         * @description Events in the order they were committed (`seq`), each written in the transaction of its change. To follow the outbox, pass the `next` of one page as `after` of the next; `next` is null when there is nothing after `after` yet (ask again later with the same `after`).
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
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description By email; `?account=NAME` for one account (an unknown name is 400 naming `account`).
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Invite a user
         * @description To an account (`owner` or `member`) or, with `account: null`, an operator. The response carries a one-time link (valid 72 h by default); following it sets a password and signs in. `X-Operator` is recorded as who invited. An email already taken is 409.
         */
        post: operations["inviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{email}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a user's password-reset link
         * @description A one-time link to set a new password (for a user who never accepted, a new invitation link). Earlier unused links of the user stop working; following it ends their other sessions. No body.
         */
        post: operations["resetUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{email}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a user
         * @description Their sessions end at once, their unused links stop working, and sign-in is refused. No body.
         */
        post: operations["disableUser"];
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
        /** ImportResult */
        ImportResult: {
            imported: boolean;
            lines: number;
            /** @description Records written per type. */
            counts: {
                [key: string]: number;
            };
        };
        /** AdminAccountList */
        AdminAccountList: {
            /** @description By name. */
            data: {
                name: string;
                plan: "free" | "pro" | "enterprise" | "custom";
                rateLimitA: number | null;
                rateLimitB: number | null;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                createdAt: string;
            }[];
        };
        /**
         * AdminAccountCreated
         * @description The account was created.
         */
        AdminAccountCreated: {
            name: string;
            plan: "free" | "pro" | "enterprise" | "custom";
            rateLimitA: number | null;
            rateLimitB: number | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            createdAt: string;
        };
        /** AdminAccount */
        AdminAccount: {
            name: string;
            plan: "free" | "pro" | "enterprise" | "custom";
            rateLimitA: number | null;
            rateLimitB: number | null;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            createdAt: string;
        };
        /** AdminKeyList */
        AdminKeyList: {
            /** @description Oldest first; revoked keys included. */
            data: {
                /** @description Key id (`key_…`): use it to revoke. */
                id: string;
                name: string | null;
                /** @description Display prefix: enough to recognise a key, useless to an attacker. */
                prefix: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                createdAt: string;
                revokedAt: string | null;
            }[];
        };
        /**
         * AdminKeyCreated
         * @description The key was created.
         */
        AdminKeyCreated: {
            /** @description The API key. Shown this once; only its hash is stored. */
            key: string;
            account: string;
            /** @description Key id (`key_…`): use it to revoke. */
            id: string;
            name: string | null;
            /** @description Display prefix: enough to recognise a key, useless to an attacker. */
            prefix: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            createdAt: string;
            revokedAt: string | null;
        };
        /** AdminKey */
        AdminKey: {
            /** @description Key id (`key_…`): use it to revoke. */
            id: string;
            name: string | null;
            /** @description Display prefix: enough to recognise a key, useless to an attacker. */
            prefix: string;
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            createdAt: string;
            revokedAt: string | null;
        };
        /** AdminVendor */
        AdminVendor: {
            slug: string;
            name: string;
            verified: boolean;
            /** @description The operator's flag (the public one is also true while unscored). */
            pending: boolean;
            verifiedAt: string | null;
            listingPlan: "free" | "premium";
            /** @description The account that claimed it. */
            ownerAccount: string | null;
            /** @description Pillars computed from evidence; null for each while there is too little evidence. */
            computed: {
                coa: number | null;
                purity: number | null;
                sentiment: number | null;
                transparency: number | null;
                experience: number | null;
            };
            /** @description Effective pillars (overrides applied); null while the vendor is not scored. */
            pillars: {
                coa: number;
                purity: number;
                sentiment: number;
                transparency: number;
                experience: number;
            } | null;
            /** @description Effective composite; null while the vendor is not scored. */
            score: number | null;
            overrides: {
                vendorSlug: string;
                field: "coa" | "purity" | "sentiment" | "transparency" | "experience" | "score";
                value: number;
                reason: string;
                /** @description Who set it (`X-Operator`; `import` for imported overrides). */
                setBy: string;
                /**
                 * Format: date-time
                 * @description When this value and reason were set (ISO 8601).
                 */
                setAt: string;
            }[];
            /** @description Composite history with the reason of each entry, newest last. */
            history: {
                score: number;
                reason: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                recordedAt: string;
            }[];
        };
        /**
         * AdminVendorWrite
         * @description The vendor after the write.
         */
        AdminVendorWrite: {
            /** @description false: the vendor already was in the asked state; nothing was written. */
            changed: boolean;
            vendor: {
                slug: string;
                name: string;
                verified: boolean;
                /** @description The operator's flag (the public one is also true while unscored). */
                pending: boolean;
                verifiedAt: string | null;
                listingPlan: "free" | "premium";
                /** @description The account that claimed it. */
                ownerAccount: string | null;
                /** @description Pillars computed from evidence; null for each while there is too little evidence. */
                computed: {
                    coa: number | null;
                    purity: number | null;
                    sentiment: number | null;
                    transparency: number | null;
                    experience: number | null;
                };
                /** @description Effective pillars (overrides applied); null while the vendor is not scored. */
                pillars: {
                    coa: number;
                    purity: number;
                    sentiment: number;
                    transparency: number;
                    experience: number;
                } | null;
                /** @description Effective composite; null while the vendor is not scored. */
                score: number | null;
                overrides: {
                    vendorSlug: string;
                    field: "coa" | "purity" | "sentiment" | "transparency" | "experience" | "score";
                    value: number;
                    reason: string;
                    /** @description Who set it (`X-Operator`; `import` for imported overrides). */
                    setBy: string;
                    /**
                     * Format: date-time
                     * @description When this value and reason were set (ISO 8601).
                     */
                    setAt: string;
                }[];
                /** @description Composite history with the reason of each entry, newest last. */
                history: {
                    score: number;
                    reason: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601, UTC, milliseconds.
                     */
                    recordedAt: string;
                }[];
            };
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /** AdminListingsResult */
        AdminListingsResult: {
            vendorSlug: string;
            /** @description Rows written. */
            rows: number;
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /** AdminOverrideList */
        AdminOverrideList: {
            /** @description By vendor slug, then field. */
            data: {
                vendorSlug: string;
                field: "coa" | "purity" | "sentiment" | "transparency" | "experience" | "score";
                value: number;
                reason: string;
                /** @description Who set it (`X-Operator`; `import` for imported overrides). */
                setBy: string;
                /**
                 * Format: date-time
                 * @description When this value and reason were set (ISO 8601).
                 */
                setAt: string;
            }[];
        };
        /** AdminOverrideSet */
        AdminOverrideSet: {
            override: {
                vendorSlug: string;
                field: "coa" | "purity" | "sentiment" | "transparency" | "experience" | "score";
                value: number;
                reason: string;
                /** @description Who set it (`X-Operator`; `import` for imported overrides). */
                setBy: string;
                /**
                 * Format: date-time
                 * @description When this value and reason were set (ISO 8601).
                 */
                setAt: string;
            };
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /** AdminOverrideCleared */
        AdminOverrideCleared: {
            /** @description The override as it was. */
            cleared: {
                vendorSlug: string;
                field: "coa" | "purity" | "sentiment" | "transparency" | "experience" | "score";
                value: number;
                reason: string;
                /** @description Who set it (`X-Operator`; `import` for imported overrides). */
                setBy: string;
                /**
                 * Format: date-time
                 * @description When this value and reason were set (ISO 8601).
                 */
                setAt: string;
            } | null;
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /**
         * AdminReviewCreated
         * @description The review was added.
         */
        AdminReviewCreated: {
            id: string;
            vendorSlug: string;
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /**
         * AdminReplyCreated
         * @description The reply was added.
         */
        AdminReplyCreated: {
            reviewId: string;
            account: string;
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /** AdminPendingBatches */
        AdminPendingBatches: {
            /** @description Oldest submission first, with the CoA uploads of each. */
            data: {
                vendorSlug: string;
                batchId: string;
                peptideSlug: string;
                status: "approved" | "pending" | "rejected";
                purity: number | null;
                lab: string | null;
                testMethod: string | null;
                testedAt: string | null;
                source: string | null;
                sourceUrl: string | null;
                submittedAt: string | null;
                /** @description CoA uploads of this submission, oldest first: the first 20. */
                uploads: {
                    verificationId: string;
                    /** @description The account that uploaded it. */
                    account: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601, UTC, milliseconds.
                     */
                    uploadedAt: string;
                    status: "verified" | "pending_review" | "mismatch" | "rejected" | "unreadable";
                    confidence: number;
                    notes: {
                        code: string;
                        message: string;
                    }[];
                    extracted: {
                        lab: string | null;
                        batch: string | null;
                        compound: string | null;
                        testDate: {
                            iso: string;
                            text: string;
                            ambiguous: boolean;
                        } | null;
                        method: string | null;
                        purity: number | null;
                        purityText: string | null;
                        quantity: string | null;
                        labelClaim: string | null;
                        identity: string | null;
                        client: string | null;
                        verificationKey: string | null;
                        verificationUrl: string | null;
                    } | null;
                    /** @description SHA-256 of the uploaded file. */
                    sha256: string;
                    filePath: string | null;
                }[];
                /** @description How many CoA uploads the submission has in all. */
                uploadsTotal: number;
            }[];
            /** @description All pending submissions, not just this page. */
            total: number;
            limit: number;
            offset: number;
        };
        /**
         * AdminBatchWrite
         * @description The batch after the decision.
         */
        AdminBatchWrite: {
            batch: {
                vendorSlug: string;
                batchId: string;
                peptideSlug: string;
                status: "approved" | "pending" | "rejected";
                purity: number | null;
                lab: string | null;
                testMethod: string | null;
                testedAt: string | null;
                source: string | null;
                sourceUrl: string | null;
                submittedAt: string | null;
            };
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /** AdminRecomputeResult */
        AdminRecomputeResult: {
            /** @description Vendors recomputed. */
            vendors: number;
            /** @description Vendors whose stored pillars or score changed. */
            updated: number;
            /** @description Vendors whose composite moved (length of scoreChanges). */
            changed: number;
            /** @description Composite scores this write moved (one score-history entry each). */
            scoreChanges: {
                vendorSlug: string;
                /** @description null: the vendor was not scored before. */
                previous: number | null;
                next: number;
            }[];
        };
        /** AdminEventList */
        AdminEventList: {
            /** @description Oldest first. */
            data: {
                /** @description Position in the outbox; increases with every event. */
                seq: number;
                /** @description Public id, `evt_…`. */
                id: string;
                type: "score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply";
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                createdAt: string;
                /** @description The payload; always has `vendor_slug`. */
                data: {
                    [key: string]: unknown;
                };
            }[];
            /** @description `seq` of the last event here, to pass as `after`; null when there was none. */
            next: number | null;
        };
        /** AdminUserList */
        AdminUserList: {
            /** @description By email. */
            data: {
                email: string;
                role: "owner" | "member" | "operator";
                /** @description Its name; null for an operator. */
                account: string | null;
                /** @description The account's plan; null for an operator. */
                plan: ("free" | "pro" | "enterprise" | "custom") | null;
                state: "invited" | "active" | "disabled";
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                createdAt: string;
                lastSignInAt: string | null;
                disabledAt: string | null;
                /** @description The operator (`X-Operator`, CLI `--as`) or owner (their email) who invited them. */
                invitedBy: string | null;
            }[];
        };
        /** AdminUserLink */
        AdminUserLink: {
            user: {
                email: string;
                role: "owner" | "member" | "operator";
                /** @description Its name; null for an operator. */
                account: string | null;
                /** @description The account's plan; null for an operator. */
                plan: ("free" | "pro" | "enterprise" | "custom") | null;
                state: "invited" | "active" | "disabled";
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                createdAt: string;
                lastSignInAt: string | null;
                disabledAt: string | null;
                /** @description The operator (`X-Operator`, CLI `--as`) or owner (their email) who invited them. */
                invitedBy: string | null;
            };
            /** @description The one-time link to give the user privately: it sets a password and signs in. Shown this once; only its hash is stored. */
            link: string;
            purpose: "invite" | "reset";
            /**
             * Format: date-time
             * @description The link works until then (72 h by default).
             */
            expiresAt: string;
        };
        /** AdminUser */
        AdminUser: {
            email: string;
            role: "owner" | "member" | "operator";
            /** @description Its name; null for an operator. */
            account: string | null;
            /** @description The account's plan; null for an operator. */
            plan: ("free" | "pro" | "enterprise" | "custom") | null;
            state: "invited" | "active" | "disabled";
            /**
             * Format: date-time
             * @description ISO 8601, UTC, milliseconds.
             */
            createdAt: string;
            lastSignInAt: string | null;
            disabledAt: string | null;
            /** @description The operator (`X-Operator`, CLI `--as`) or owner (their email) who invited them. */
            invitedBy: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    importData: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportResult"];
                };
            };
            /** @description Bad lines (`ImportRejected`: nothing was written, the first bad lines are listed), or a request refused before its lines were read (the common error body). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        error: {
                            /** @constant */
                            code: "invalid_parameter";
                            message: string;
                            /** @constant */
                            status: 400;
                            request_id: string;
                            /** @description Every error in the file, listed or not. */
                            error_count: number;
                            /** @description The first 1,000 errors, in line order. */
                            lines: {
                                line: number;
                                message: string;
                            }[];
                        };
                    } | components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
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
            /** @description The body is not application/x-ndjson, or has no Content-Type (`unsupported_media_type`). */
            415: {
                headers: {
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
    listAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAccountList"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
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
    createAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1–100 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit. */
                    name: string;
                    /** @enum {string} */
                    plan: "free" | "pro" | "enterprise" | "custom";
                    /** @description Requests per UTC hour on /v1. An integer from 1 to 10000000; `null` = the plan's default. Used by the `custom` plan. */
                    rateLimitA?: number | null;
                    /** @description Requests per rolling 24 h on /api/v1 (≤ 4 MB of window per key). An integer from 1 to 1000000; `null` = the plan's default. Used by the `custom` plan. */
                    rateLimitB?: number | null;
                };
            };
        };
        responses: {
            /** @description The account was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAccountCreated"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
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
            /** @description The name is taken (`conflict`). */
            409: {
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
    updateAccount: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    plan?: "free" | "pro" | "enterprise" | "custom";
                    /** @description Requests per UTC hour on /v1. An integer from 1 to 10000000; `null` = the plan's default. Used by the `custom` plan. */
                    rateLimitA?: number | null;
                    /** @description Requests per rolling 24 h on /api/v1 (≤ 4 MB of window per key). An integer from 1 to 1000000; `null` = the plan's default. Used by the `custom` plan. */
                    rateLimitB?: number | null;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAccount"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such account (`not_found`). */
            404: {
                headers: {
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
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminKeyList"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such account (`not_found`). */
            404: {
                headers: {
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
    createKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A label for the key. */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description The key was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminKeyCreated"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such account (`not_found`). */
            404: {
                headers: {
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
    revokeKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The key id (`key_…`), its display prefix, or the full key. Keys never go in a URL. */
                    key: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminKey"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No key matches (`not_found`). */
            404: {
                headers: {
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
            /** @description Already revoked, or the prefix names several keys (`conflict`). */
            409: {
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
            header?: never;
            path: {
                /** @description Vendor slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminVendor"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
    updateVendor: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Vendor slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Verifying stamps verifiedAt; unverifying clears it. */
                    verified?: boolean;
                    pending?: boolean;
                    /** @enum {string} */
                    listingPlan?: "free" | "premium";
                };
            };
        };
        responses: {
            /** @description The vendor after the write. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminVendorWrite"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
    claimVendor: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Vendor slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Name of the account that owns the profile; null releases it. */
                    account: string | null;
                };
            };
        };
        responses: {
            /** @description The vendor after the write. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminVendorWrite"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
    putListings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Vendor slug. */
                slug: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1–5000 rows, at most one per peptide and vial size. Each is upserted as a live price row; rows of earlier feeds that this one does not mention are kept. */
                    rows: {
                        /** @description Peptide slug; the peptide must exist. */
                        peptideSlug: string;
                        /** @description Vial size in mg, 0.001 to 100000. */
                        vialMg: number;
                        /** @description Price of the vial in US dollars, 0 to 1000000. */
                        totalUsd: number;
                        inStock: boolean;
                        /**
                         * Format: date-time
                         * @description When the vendor last confirmed the row. ISO 8601 with a time zone; not in the future; defaults to now.
                         */
                        updatedAt?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminListingsResult"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
    listOverrides: {
        parameters: {
            query?: {
                /** @description Only this vendor (slug). */
                vendor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOverrideList"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
    setOverride: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Vendor slug. */
                slug: string;
                /** @description A pillar, or `score` to pin the composite. */
                field: "coa" | "purity" | "sentiment" | "transparency" | "experience" | "score";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    value: number;
                    /** @description Why; shown to operators. */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOverrideSet"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
    clearOverride: {
        parameters: {
            query?: {
                /** @description Why the override is cleared (optional, 1–500 characters, trimmed): kept with who and when in the operator decision log. */
                reason?: string;
            };
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Vendor slug. */
                slug: string;
                /** @description A pillar, or `score` to pin the composite. */
                field: "coa" | "purity" | "sentiment" | "transparency" | "experience" | "score";
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Why the override is cleared (optional, 1–500 characters, trimmed): kept with who and when in the operator decision log. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminOverrideCleared"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug, or it has no such override (`not_found`). */
            404: {
                headers: {
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
    addReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Defaults to a new `rev_…` id; an existing id is 409. */
                    id?: string;
                    vendorSlug: string;
                    rating: number;
                    title: string;
                    body: string;
                    author: string;
                    /**
                     * Format: date-time
                     * @description When the review was written. ISO 8601 with a time zone; not in the future; defaults to now.
                     */
                    createdAt?: string;
                };
            };
        };
        responses: {
            /** @description The review was added. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminReviewCreated"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
            /** @description A review with that id exists (`conflict`). */
            409: {
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
    replyToReview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Review id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    body: string;
                    /** @description The account replying: it must own (have claimed) the reviewed vendor. */
                    account: string;
                    /**
                     * Format: date-time
                     * @description When the reply was written. ISO 8601 with a time zone; not in the future; defaults to now.
                     */
                    createdAt?: string;
                };
            };
        };
        responses: {
            /** @description The reply was added. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminReplyCreated"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No review with that id (`not_found`). */
            404: {
                headers: {
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
            /** @description The review already has a reply, or its vendor is not claimed (`conflict`). */
            409: {
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
    listPendingBatches: {
        parameters: {
            query?: {
                /** @description Page size, 1–200 (default 50). */
                limit?: number;
                /** @description Items to skip, 0–2147483647 (default 0). */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminPendingBatches"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
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
    approveBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Vendor slug. */
                slug: string;
                /** @description Batch number, URL-encoded; matched case-insensitively after trimming. */
                batchId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Percent. */
                    purity?: number;
                    /** @description Lab slug; the lab must exist. */
                    lab?: string;
                    testMethod?: string;
                    /**
                     * Format: date-time
                     * @description When the batch was tested: ISO 8601, not in the future.
                     */
                    testedAt?: string;
                };
            };
        };
        responses: {
            /** @description The batch after the decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminBatchWrite"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such vendor, or it has no batch with that number (`not_found`). */
            404: {
                headers: {
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
            /** @description The batch is not pending (`conflict`). */
            409: {
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
    rejectBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description Vendor slug. */
                slug: string;
                /** @description Batch number, URL-encoded; matched case-insensitively after trimming. */
                batchId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description Why the batch is rejected (optional, 1–500 characters, trimmed): kept with who and when in the operator decision log. */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The batch after the decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminBatchWrite"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such vendor, or it has no batch with that number (`not_found`). */
            404: {
                headers: {
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
            /** @description The batch is not pending (`conflict`). */
            409: {
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
    recomputeScores: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminRecomputeResult"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
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
                /** @description Only events after this `seq` (pass `next`), 0–2147483647. */
                after?: number;
                type?: "score.changed" | "vendor.tier_upgraded" | "coa.approved" | "coa.rejected" | "review.new" | "review.reply";
                /** @description Only events of this vendor (slug). */
                vendor?: string;
                /** @description 1–1000 (default 100). */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminEventList"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No vendor with that slug (`not_found`). */
            404: {
                headers: {
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
    listUsers: {
        parameters: {
            query?: {
                /** @description Only this account's users (its name). */
                account?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserList"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
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
    inviteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Who is invited. Trimmed and lower-cased. */
                    email: string;
                    /** @description The account they join (its name), or `null` for an operator. */
                    account: string | null;
                    /**
                     * @description `owner` or `member` of the account (default `member`); `operator` with `account: null` (its default).
                     * @enum {string}
                     */
                    role?: "owner" | "member" | "operator";
                };
            };
        };
        responses: {
            /** @description Error */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserLink"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
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
            /** @description A user with that email exists (`conflict`). */
            409: {
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
    resetUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description The user's email address (URL-encoded in the path). Trimmed and lower-cased. */
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUserLink"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No user with that email (`not_found`). */
            404: {
                headers: {
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
            /** @description The user is disabled (`conflict`). */
            409: {
                headers: {
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
    disableUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description Who is acting: 1–254 printable ASCII characters (an email address fits). Recorded with overrides, in the reasons of score-history entries and in the operator decision log. Default `admin-api`. */
                "x-operator"?: string;
            };
            path: {
                /** @description The user's email address (URL-encoded in the path). Trimmed and lower-cased. */
                email: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminUser"];
                };
            };
            /** @description Invalid parameter (`invalid_parameter`): the message names it. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or wrong admin token (`invalid_api_key`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No user with that email (`not_found`). */
            404: {
                headers: {
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
            /** @description Already disabled (`conflict`). */
            409: {
                headers: {
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
