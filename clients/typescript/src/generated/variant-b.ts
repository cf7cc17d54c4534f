// Generated from openapi/variant-b.json by `npm run openapi`; do not edit.

export interface paths {
    "/vendors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ranked vendors
         * @description All scored vendors, by composite score descending (ties: name, then slug), overrides applied. `total` counts all scored vendors; the applied `limit` and `offset` are echoed.
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
         * @description One vendor with pillars and score history. `website` only for premium listings.
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
    "/peptides/{slug}/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Merged price table of a peptide
         * @description Live vendor listings merged over the static baseline (a live row replaces the baseline row of the same vendor and vial size). Sorted: in stock first, then claimed vendors, then ascending perMg. Claimed vendors sort first, so the first row is not necessarily the cheapest in stock: /price-stats names that one, and the cheapest from a verified vendor.
         */
        get: operations["getPeptidePrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/peptides/{slug}/price-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Today’s price statistics of a peptide
         * @description Cheapest in-stock and cheapest verified $/mg with their vendors, p25, median, p75 and vendor counts for today (UTC). Computed from every kept change of the listings (a live listing replaces the baseline one of the same vendor and vial size, as in the price table); the quartiles are of each in-stock vendor’s lowest $/mg.
         */
        get: operations["getPeptidePriceStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/peptides/{slug}/price-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Daily price statistics of a peptide
         * @description One point per UTC day, oldest first, the last one today; each point as in price-stats. A day with no listing has null statistics and zero counts. Computed from every kept change of the listings (a live listing replaces the baseline one of the same vendor and vial size, as in the price table); the quartiles are of each in-stock vendor’s lowest $/mg.
         */
        get: operations["getPeptidePriceHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{batchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a batch number
         * @description HTTP 200 for any batch number: the answer is one of `verified`, `stale` (tested more than 150 days ago), `pending` (submitted, not yet reviewed) or `missing`. Batch numbers match case-insensitively after trimming; URL-encode them. When vendors share a number, `vendor` narrows the lookup; otherwise the strongest record wins (current, then stale, then pending). A `vendor` that does not exist is 404 `not_found`, so a typo in it never makes a real batch look `missing`.
         */
        get: operations["lookupBatch"];
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
        /** VendorListB */
        VendorListB: {
            data: {
                vendors: {
                    slug: string;
                    name: string;
                    /** @description Composite score. */
                    score: number;
                    verified: boolean;
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
                /** @description Count of all scored vendors, not of this page. */
                total: number;
                /** @description The page size applied (after clamping to 1..200). */
                limit: number;
                /** @description The offset applied. */
                offset: number;
            };
            /**
             * Format: date-time
             * @description When the data behind this response last changed (not the response time).
             */
            data_updated_at: string;
        };
        /** VendorDetailB */
        VendorDetailB: {
            data: {
                slug: string;
                name: string;
                /** @description Composite score. Absent while the vendor is not yet scored (it is then `pending`). */
                score?: number;
                verified: boolean;
                pending: boolean;
                location: string;
                /** @description The five pillars. Absent while the vendor is not yet scored (it is then `pending`). */
                pillars?: {
                    coa: number;
                    purity: number;
                    sentiment: number;
                    transparency: number;
                    experience: number;
                };
                description: string;
                /**
                 * Format: uri
                 * @description Present only for premium listings.
                 */
                website?: string;
                /** @description Composite scores, oldest first (newest 30). */
                scoreHistory: number[];
            };
            /**
             * Format: date-time
             * @description When the data behind this response last changed (not the response time).
             */
            data_updated_at: string;
        };
        /** PriceTableB */
        PriceTableB: {
            data: {
                slug: string;
                name: string;
                category: string;
                /** @description In stock first, then claimed vendors, then ascending perMg. */
                prices: {
                    vendorSlug: string;
                    vendorName: string;
                    /** @description Total price in US dollars. */
                    totalUsd: number;
                    /** @description Vial size in milligrams. */
                    vialMg: number;
                    /** @description totalUsd / vialMg, rounded to 4 decimals (sorted on the exact value). */
                    perMg: number;
                    inStock: boolean;
                    /** @description The vendor profile is owned by an account. */
                    claimed: boolean;
                    /** @description A live vendor listing rather than the static baseline. */
                    live: boolean;
                    /** @description Live: not refreshed for 72 h. Baseline: older than 90 days. */
                    stale: boolean;
                    /**
                     * Format: date-time
                     * @description ISO 8601, UTC, milliseconds.
                     */
                    updatedAt: string;
                }[];
            };
            /**
             * Format: date-time
             * @description When the data behind this response last changed (not the response time).
             */
            data_updated_at: string;
        };
        /** PriceStatsB */
        PriceStatsB: {
            data: {
                slug: string;
                name: string;
                category: string;
                /** @description A summary of the listings standing at the end of a UTC day: a live listing replaces the baseline one of the same vendor and vial size, as in the price table. */
                stats: {
                    /** @description The UTC day (YYYY-MM-DD), as listed at its end. */
                    date: string;
                    /** @description The lowest $/mg of any in-stock listing (ties: vendor slug, then vial size). */
                    cheapestInStock: {
                        vendorSlug: string;
                        vendorName: string;
                        /** @description totalUsd / vialMg, rounded to 4 decimals. */
                        perMg: number;
                        totalUsd: number;
                        vialMg: number;
                    } | null;
                    /** @description The lowest $/mg of an in-stock listing of a verified vendor: the vendor's `verified` of /api/v1/vendors (not the price table's `claimed`: that says an account owns the vendor's profile). */
                    cheapestVerified: {
                        vendorSlug: string;
                        vendorName: string;
                        /** @description totalUsd / vialMg, rounded to 4 decimals. */
                        perMg: number;
                        totalUsd: number;
                        vialMg: number;
                    } | null;
                    /** @description Median of each in-stock vendor's lowest $/mg (linear interpolation, 4 decimals); null when no vendor is in stock. */
                    median: number | null;
                    /** @description 25th percentile of each in-stock vendor's lowest $/mg (linear interpolation, 4 decimals); null when no vendor is in stock. */
                    p25: number | null;
                    /** @description 75th percentile of each in-stock vendor's lowest $/mg (linear interpolation, 4 decimals); null when no vendor is in stock. */
                    p75: number | null;
                    /** @description Vendors with at least one in-stock listing. */
                    vendorCount: number;
                    /** @description Vendors with any listing, in stock or not. */
                    listedVendorCount: number;
                };
            };
            /**
             * Format: date-time
             * @description When the data behind this response last changed (not the response time).
             */
            data_updated_at: string;
        };
        /** PriceHistoryB */
        PriceHistoryB: {
            data: {
                slug: string;
                name: string;
                category: string;
                /** @description The number of days asked for (echoed). */
                days: number;
                /** @description One point per UTC day, oldest first; the last is today. */
                points: {
                    /** @description The UTC day (YYYY-MM-DD), as listed at its end. */
                    date: string;
                    /** @description The lowest $/mg of any in-stock listing (ties: vendor slug, then vial size). */
                    cheapestInStock: {
                        vendorSlug: string;
                        vendorName: string;
                        /** @description totalUsd / vialMg, rounded to 4 decimals. */
                        perMg: number;
                        totalUsd: number;
                        vialMg: number;
                    } | null;
                    /** @description The lowest $/mg of an in-stock listing of a verified vendor: the vendor's `verified` of /api/v1/vendors (not the price table's `claimed`: that says an account owns the vendor's profile). */
                    cheapestVerified: {
                        vendorSlug: string;
                        vendorName: string;
                        /** @description totalUsd / vialMg, rounded to 4 decimals. */
                        perMg: number;
                        totalUsd: number;
                        vialMg: number;
                    } | null;
                    /** @description Median of each in-stock vendor's lowest $/mg (linear interpolation, 4 decimals); null when no vendor is in stock. */
                    median: number | null;
                    /** @description 25th percentile of each in-stock vendor's lowest $/mg (linear interpolation, 4 decimals); null when no vendor is in stock. */
                    p25: number | null;
                    /** @description 75th percentile of each in-stock vendor's lowest $/mg (linear interpolation, 4 decimals); null when no vendor is in stock. */
                    p75: number | null;
                    /** @description Vendors with at least one in-stock listing. */
                    vendorCount: number;
                    /** @description Vendors with any listing, in stock or not. */
                    listedVendorCount: number;
                }[];
            };
            /**
             * Format: date-time
             * @description When the data behind this response last changed (not the response time).
             */
            data_updated_at: string;
        };
        /** BatchLookupB */
        BatchLookupB: {
            data: {
                /** @constant */
                state: "verified";
                /** @description The batch number as the vendor wrote it. */
                batchId: string;
                peptideName: string;
                vendorSlug: string;
                vendorName: string;
                vendorVerified: boolean;
                /** @description Percent. */
                purity: number;
                /** @description Name of the testing laboratory. */
                lab: string;
                testMethod: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                testedAt: string;
                /** @description Whole days since testing. */
                ageDays: number;
                /** @description Origin of the record; "" when none was recorded. */
                source: string;
                /** @description URL of the record; "" when none was recorded. */
                sourceUrl: string;
            } | {
                /** @constant */
                state: "stale";
                /** @description The batch number as the vendor wrote it. */
                batchId: string;
                peptideName: string;
                vendorSlug: string;
                vendorName: string;
                vendorVerified: boolean;
                /** @description Percent. */
                purity: number;
                /** @description Name of the testing laboratory. */
                lab: string;
                testMethod: string;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                testedAt: string;
                /** @description Whole days since testing. */
                ageDays: number;
                /** @description Origin of the record; "" when none was recorded. */
                source: string;
                /** @description URL of the record; "" when none was recorded. */
                sourceUrl: string;
            } | {
                /** @constant */
                state: "pending";
                /** @description The batch number as the vendor wrote it. */
                batchId: string;
                peptideName: string;
                vendorSlug: string;
                vendorName: string;
                vendorVerified: boolean;
                /**
                 * Format: date-time
                 * @description ISO 8601, UTC, milliseconds.
                 */
                submittedAt: string;
            } | {
                /** @constant */
                state: "missing";
                /** @description The batch number as requested (trimmed). */
                batchId: string;
            };
            /** Format: date-time */
            data_updated_at: string;
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
                /** @description Page size, default 50; any 32-bit integer, and values outside 1..200 are clamped (the applied value is echoed). */
                limit?: number;
                /** @description Vendors to skip, default 0; at most 2,147,483,647. */
                offset?: number;
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
                    "application/json": components["schemas"]["VendorListB"];
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
                    "application/json": components["schemas"]["VendorDetailB"];
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
    getPeptidePrices: {
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
                    "application/json": components["schemas"]["PriceTableB"];
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
    getPeptidePriceStats: {
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
                    "application/json": components["schemas"]["PriceStatsB"];
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
    getPeptidePriceHistory: {
        parameters: {
            query?: {
                /** @description Days of history, ending today (UTC): 1..365, default 90. */
                days?: number;
            };
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
                    "application/json": components["schemas"]["PriceHistoryB"];
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
            /** @description `days` outside 1..365 or not an integer (`invalid_parameter`, naming it). */
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
    lookupBatch: {
        parameters: {
            query?: {
                /** @description Vendor slug to narrow the lookup; an unknown vendor is 404 `not_found`. */
                vendor?: string;
            };
            header?: {
                /** @description An ETag this endpoint gave; while the body is unchanged the answer is 304 (not counted). */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Batch number (1..128 characters). */
                batchId: string;
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
                    "application/json": components["schemas"]["BatchLookupB"];
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
            /** @description The `vendor` given does not exist (`not_found`). */
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
}
