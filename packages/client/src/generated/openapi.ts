/**
 * Generated from the Stockroom server's OpenAPI document by `npm run generate -w @stockroom/client`.
 * Do not edit by hand: a test fails when this file no longer matches the server.
 */

export interface paths {
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service health
         * @description Needs no key (a supplied key is ignored). 200 with `ok` or `degraded` (an optional dependency is down); 503 with `unavailable` when the database is down.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthResponse"];
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HealthResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify an API key
         * @description Describes the key the request was made with. Counts toward the rate limit, spends no quota, and reports the uses left now. Never returns the secret or its hash.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["VerifyResponse"];
                    };
                };
                /** @description Error: UNKNOWN_PARAMETER, INVALID_PARAMETER */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: MISSING_API_KEY, INVALID_API_KEY, CONFLICTING_API_KEYS, KEY_DISABLED, KEY_EXPIRED, KEY_EXHAUSTED, RATE_LIMITED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The key’s organization
         * @description The organization the key belongs to: id, name, slug, enabled features and creation time. Needs a key, no permission.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Legacy override. By default the key’s organization is used; naming another organization answers 403. Responses carry `Deprecation: true`. */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Organization"];
                        };
                    };
                };
                /** @description Error: UNKNOWN_PARAMETER, INVALID_PARAMETER */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: MISSING_API_KEY, INVALID_API_KEY, CONFLICTING_API_KEYS, KEY_DISABLED, KEY_EXPIRED, KEY_EXHAUSTED, RATE_LIMITED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_FORBIDDEN */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inventory/items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List inventory items
         * @description Items of the key’s organization in creation order (`_id` ascending), filtered by `search`, `status`, `location` or the exact `sku`, `barcode` and `ids`, narrowed by `fields`, one page at a time: pass `nextCursor` back as `cursor` until it is null. With `updatedSince`, an incremental sync instead: the items changed since then in change order, deletions too with `includeDeleted=true`, and `nextSince` to continue from next time. Every page carries a strong `ETag` (one per content encoding; `If-None-Match` answers 304) and is compressed with brotli or gzip when `Accept-Encoding` allows. Needs `inventory:view` and the `inventory` feature.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Legacy override. By default the key’s organization is used; naming another organization answers 403. Responses carry `Deprecation: true`. */
                    organizationId?: string;
                    /**
                     * @description Maximum number of items in the page: a positive integer. Default 100; values above 1000 are served as 1000.
                     * @example 50
                     */
                    limit?: string;
                    /** @description Case-insensitive substring match against name, description, sku and barcode (1–200 characters; Unicode simple case folding; accents significant; %, _ and \ are literal). */
                    search?: string;
                    /** @description Only items with this status (exact case). */
                    status?: "Draft" | "Active" | "Inactive" | "Discontinued";
                    /**
                     * @description Comma-separated item fields to return; each item then carries only these, in the usual order. Allowed: _id, organizationId, name, description, sku, barcode, status, quantity, stock, customFields, createdAt, updatedAt.
                     * @example _id,name,sku,quantity
                     */
                    fields?: string;
                    /** @description Opaque token from the `nextCursor` of the previous page; send the same filters with it (search, status, sku, barcode, ids, location, updatedSince, includeDeleted). */
                    cursor?: string;
                    /**
                     * @description Only the item with exactly this SKU (case-sensitive, as stored; indexed). Cannot be combined with `search` or `updatedSince`.
                     * @example DRL-2210-STL
                     */
                    sku?: string;
                    /**
                     * @description Only items with exactly this barcode (case-sensitive, as stored; indexed). Cannot be combined with `search` or `updatedSince`.
                     * @example 4006381333931
                     */
                    barcode?: string;
                    /**
                     * @description Only the items with these `_id`s: up to 100 comma-separated 24-character hex ids, in `_id` order; unknown ids (and other organizations’ items) are simply absent. Cannot be combined with `search` or `updatedSince`.
                     * @example 6740a1f2c3d4e5f6a7b8c9d0,6740a1f2c3d4e5f6a7b8c9d1
                     */
                    ids?: string;
                    /**
                     * @description Only items with more than 0 at the location of this code (case-sensitive; see `GET /api/v1/inventory/locations`). Combines with every other parameter. An unknown code answers 400 `INVALID_PARAMETER`.
                     * @example WH-1
                     */
                    location?: string;
                    /**
                     * @description Incremental sync: only items changed after this point, in change order (not `_id` order), and the response carries `nextSince`. Either an ISO 8601 instant with a time zone (`2026-11-24T08:00:00Z`, `2026-11-24T09:00:00+01:00`) or a date (`2026-11-24`, midnight UTC), or the `nextSince` of an earlier response to continue from where it ended. An item may repeat across syncs; none is ever missed. Combines with `status`, `location`, `fields`, `limit`, `cursor` and `includeDeleted`.
                     * @example 2026-11-24T08:00:00Z
                     */
                    updatedSince?: string;
                    /** @description With `updatedSince`: also list the items deleted since then, as `deleted: [{ _id, deletedAt }]` (kept for the retention period, 30 days by default; an older sync point answers 410 `SYNC_EXPIRED`). */
                    includeDeleted?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["InventoryItem"][];
                            organizationId: string;
                            /** @description Number of items in `data`. */
                            count: number;
                            /** @description Pass as `cursor` for the next page; null on the last page. A `search` of 3+ characters always returns full pages. One of 1–2 characters examines at most 10,000 items after the cursor (with the `status` filter) per request: when they hold fewer than `limit` matches the page is short (even empty) and `nextCursor` continues after the last item examined, so follow it until it is null. Likewise a sync (`updatedSince`) with `status`, `location` or a key view that filters items examines at most 10,000 changes per request: its page may be short (even empty) with a `nextCursor` all the same. */
                            nextCursor: string | null;
                            /** @description Only with `updatedSince`: where this sync ended. Keep it and pass it as `updatedSince` next time to get only what changed since (on the last page it covers every change so far; on any other page, the changes up to the last one it examined). */
                            nextSince?: string;
                            /** @description Only with `updatedSince` and `includeDeleted=true`: items deleted since then, in change order. They count toward `limit` but not toward `count`. */
                            deleted?: {
                                _id: string;
                                /** Format: date-time */
                                deletedAt: string;
                            }[];
                        };
                    };
                };
                /** @description Not Modified: `If-None-Match` names the current `ETag` (or, on item detail, `If-Modified-Since` is not older than `Last-Modified`). No body; charged like any other request. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error: UNKNOWN_PARAMETER, INVALID_PARAMETER */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: MISSING_API_KEY, INVALID_API_KEY, CONFLICTING_API_KEYS, KEY_DISABLED, KEY_EXPIRED, KEY_EXHAUSTED, RATE_LIMITED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_FORBIDDEN, FEATURE_DISABLED, INSUFFICIENT_PERMISSIONS */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: SYNC_EXPIRED */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inventory/item": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one inventory item
         * @description One item of the key’s organization by `_id`. Another organization’s item answers 404 like an unknown one. Carries a strong `ETag` and `Last-Modified`; `If-None-Match` or `If-Modified-Since` answer 304 when it has not changed. Needs `inventory:view` and the `inventory` feature.
         */
        get: {
            parameters: {
                query: {
                    /** @description The item’s `_id` (24-character hex). */
                    itemId: string;
                    /** @description Legacy override. By default the key’s organization is used; naming another organization answers 403. Responses carry `Deprecation: true`. */
                    organizationId?: string;
                    /**
                     * @description Comma-separated item fields to return; each item then carries only these, in the usual order. Allowed: _id, organizationId, name, description, sku, barcode, status, quantity, stock, customFields, createdAt, updatedAt.
                     * @example _id,name,sku,quantity
                     */
                    fields?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["InventoryItem"];
                        };
                    };
                };
                /** @description Not Modified: `If-None-Match` names the current `ETag` (or, on item detail, `If-Modified-Since` is not older than `Last-Modified`). No body; charged like any other request. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error: UNKNOWN_PARAMETER, INVALID_PARAMETER, MISSING_PARAMETER */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: MISSING_API_KEY, INVALID_API_KEY, CONFLICTING_API_KEYS, KEY_DISABLED, KEY_EXPIRED, KEY_EXHAUSTED, RATE_LIMITED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_FORBIDDEN, FEATURE_DISABLED, INSUFFICIENT_PERMISSIONS */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, ITEM_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/inventory/locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List locations
         * @description The locations of the key’s organization, ordered by code: the codes items’ `stock` entries and the `location` filter name. Carries a strong `ETag` (`If-None-Match` answers 304). Needs `inventory:view` and the `inventory` feature.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Legacy override. By default the key’s organization is used; naming another organization answers 403. Responses carry `Deprecation: true`. */
                    organizationId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["Location"][];
                            organizationId: string;
                            /** @description Number of locations in `data`. */
                            count: number;
                        };
                    };
                };
                /** @description Not Modified: `If-None-Match` names the current `ETag` (or, on item detail, `If-Modified-Since` is not older than `Last-Modified`). No body; charged like any other request. */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error: UNKNOWN_PARAMETER, INVALID_PARAMETER */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: MISSING_API_KEY, INVALID_API_KEY, CONFLICTING_API_KEYS, KEY_DISABLED, KEY_EXPIRED, KEY_EXHAUSTED, RATE_LIMITED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_FORBIDDEN, FEATURE_DISABLED, INSUFFICIENT_PERMISSIONS */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description Needs no key. 200 while the process serves, whatever the state of its dependencies (restart the process only when this fails). Never rate limited.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LiveResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Needs no key. 200 when this process should receive traffic: the database answers within one second and the process is not shutting down. A configured Redis is reported in `checks` (and `status` is `degraded` when it does not answer) but does not fail readiness: each instance then serves on its local fallback rate limiter. 503 `SERVICE_UNAVAILABLE` naming what is not ready (the database, or the process is shutting down: it answers 503 from the moment it receives SIGTERM or SIGINT). Never rate limited.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ReadyResponse"];
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorResponse"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    itemChanges: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Item changes of an organization (a webhook delivery)
         * @description Sent to the URL of each webhook (`stockroom webhook create`) after items of its organization change: up to 100 events in change order, coalesced (an item appears once, in its latest state). Signed with the Standard Webhooks scheme: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<raw body>` with the webhook secret (the client library’s `verifyWebhook` does it). Answer with any 2xx within 10 seconds; anything else is retried with backoff. Deliveries can repeat: deduplicate on `webhook-id`.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description The delivery id; the same on every retry of the delivery.
                     * @example 6743a1f2c3d4e5f6a7b8c9d0
                     */
                    "webhook-id": string;
                    /**
                     * @description Unix seconds when this attempt was sent.
                     * @example 1732482000
                     */
                    "webhook-timestamp": string;
                    /**
                     * @description `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes of the secret after `whsec_`.
                     * @example v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=
                     */
                    "webhook-signature": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The delivery id (as in `webhook-id`). */
                        id: string;
                        webhookId: string;
                        organizationId: string;
                        /**
                         * Format: date-time
                         * @example 2026-11-24T21:00:00.120Z
                         */
                        createdAt: string;
                        events: {
                            /**
                             * @description `item.created`: a new item (never sent to this webhook before; during a backlog an item changed again may come as `item.created` twice); `item.updated`: an item sent before (or older than the webhook) changed; `item.deleted`: it was deleted (the item then holds only `_id`).
                             * @enum {string}
                             */
                            type: "item.created" | "item.updated" | "item.deleted";
                            /**
                             * Format: date-time
                             * @description The item’s updatedAt, or the time of the deletion.
                             * @example 2026-11-24T21:00:00.120Z
                             */
                            occurredAt: string;
                            item: components["schemas"]["InventoryItem"] | {
                                _id: string;
                            };
                        }[];
                    };
                };
            };
            responses: {
                /** @description Received. Any other answer, or none within 10 s, is retried. */
                "2XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /**
         * InventoryItem
         * @description An inventory item. Every field is present unless the `fields` parameter selects a subset.
         */
        InventoryItem: {
            /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
            _id?: string;
            /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
            organizationId?: string;
            name?: string;
            description?: string | null;
            sku?: string | null;
            barcode?: string | null;
            status?: "Draft" | "Active" | "Inactive" | "Discontinued";
            /** @description With stock rows, the sum of their quantities; without, the item’s own. */
            quantity?: number;
            /** @description The item’s stock per location: one entry per location it has a stock row at (quantity may be 0), ordered by code; empty when it has none. */
            stock?: {
                /** @description The location’s code. */
                location: string;
                quantity: number;
            }[];
            /** @description Free-form JSON object, returned as stored (key order kept). */
            customFields?: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds
             * @example 2026-11-22T05:01:04.123Z
             */
            createdAt?: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds
             * @example 2026-11-22T05:01:04.123Z
             */
            updatedAt?: string;
        };
        /**
         * Location
         * @description A place where the organization keeps stock (a warehouse, a shop floor…).
         */
        Location: {
            _id: string;
            /** @description Unique in the organization, case-sensitive; what `stock` and `location=` name. */
            code: string;
            name: string;
        };
        /** Organization */
        Organization: {
            /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
            _id: string;
            name: string;
            slug: string;
            /**
             * @example [
             *       "inventory"
             *     ]
             */
            features: string[];
            /**
             * Format: date-time
             * @description ISO 8601 UTC with milliseconds
             * @example 2026-11-22T05:01:04.123Z
             */
            createdAt: string;
        };
        /** ErrorResponse */
        ErrorResponse: {
            error: {
                /** @enum {string} */
                code: "MISSING_PARAMETER" | "INVALID_PARAMETER" | "UNKNOWN_PARAMETER" | "MISSING_API_KEY" | "INVALID_API_KEY" | "CONFLICTING_API_KEYS" | "KEY_DISABLED" | "KEY_EXPIRED" | "KEY_EXHAUSTED" | "RATE_LIMITED" | "ORGANIZATION_FORBIDDEN" | "INSUFFICIENT_PERMISSIONS" | "FEATURE_DISABLED" | "ORGANIZATION_NOT_FOUND" | "ITEM_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SYNC_EXPIRED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                /** @description What was wrong and how to fix it. */
                message: string;
                status: number;
                requestId: string;
                /** @description The query parameter at fault. */
                param?: string;
                /** Format: uri */
                docUrl: string;
            };
        };
        /** HealthResponse */
        HealthResponse: {
            status: "ok" | "degraded" | "unavailable";
            version: string;
            /**
             * @description One entry per dependency: "ok", "down", …
             * @example {
             *       "database": "ok"
             *     }
             * @example {
             *       "database": "ok",
             *       "redis": "down"
             *     }
             */
            checks: {
                [key: string]: string;
            };
        };
        /** VerifyResponse */
        VerifyResponse: {
            /** @enum {boolean} */
            valid: true;
            key: {
                id: string;
                name: string;
                type: "organization" | "user";
                /** @description Type prefix and first 4 random characters; safe to show. */
                prefix: string;
                organizationId: string;
                userId: string | null;
                permissions: string[];
                expiresAt: string | null;
                remaining: number | null;
                rateLimit: {
                    max: number;
                    windowSeconds: number;
                } | null;
                /** Format: date-time */
                createdAt: string;
                /** @description What this key may see (key views): items matching every `where` filter, without the `hideFields`, quantities capped at `quantityCap`; null when it sees every item whole. */
                view: {
                    /** @description Filters that must all hold: `status=A[,B…]`, `location=CODE` (more than 0 there), `customFields.NAME=VALUE`. */
                    where: string[];
                    /** @description Item fields (or `customFields.NAME`) left out of every answer. */
                    hideFields: string[];
                    /** @description Every quantity (item and stock) is served as at most this. */
                    quantityCap: number | null;
                } | null;
            };
        };
        /** LiveResponse */
        LiveResponse: {
            /** @enum {string} */
            status: "ok";
        };
        /** ReadyResponse */
        ReadyResponse: {
            /** @description `degraded` when Redis is configured and does not answer: still ready. */
            status: "ok" | "degraded";
            /**
             * @description What was checked: the database (always `ok` in a 200), and Redis when it is configured (`ok`, `down`, or `timeout` when it did not answer within one second).
             * @example {
             *       "database": "ok"
             *     }
             * @example {
             *       "database": "ok",
             *       "redis": "ok"
             *     }
             * @example {
             *       "database": "ok",
             *       "redis": "down"
             *     }
             */
            checks: {
                [key: string]: "ok" | "down" | "timeout";
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
