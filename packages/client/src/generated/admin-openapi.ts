/**
 * Generated from the Stockroom admin API's OpenAPI document (`GET /admin/v1/openapi.json` on the
 * admin port) by `npm run generate -w @stockroom/client`.
 * Do not edit by hand: a test fails when this file no longer matches the server.
 */

export interface paths {
    "/admin/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List organizations
         * @description Every organization, oldest first.
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
                        "application/json": {
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
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
                            }[];
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create an organization
         * @description As `stockroom org create`: the slug is derived from the name unless given; features default to inventory.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Display name, 1-200 characters (trimmed). */
                        name: string;
                        /**
                         * @description Lowercase letters, digits and single dashes, at most 63 characters, not shaped like an id. Default: derived from the name.
                         * @example acme-outdoor
                         */
                        slug?: string;
                        /** @description Features to enable; `[]` for none. Default: inventory. Known features: inventory. */
                        features?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
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
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SLUG_TAKEN */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Show an organization
         * @description As `stockroom org show`: the organization with its item count, the count of keys not revoked, and its members.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
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
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                name: string;
                                slug: string;
                                features: string[];
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                /** @description Items of the organization. */
                                itemCount: number;
                                /** @description Keys that are not revoked. */
                                keyCount: number;
                                members: {
                                    /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                    id: string;
                                    email: string;
                                    name: string | null;
                                }[];
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete an organization
         * @description As `stockroom org delete ORG --confirm`: deletes the organization with its items, API keys and memberships in one transaction; its users and its audit log stay. Its keys stop working on every process within a second. With `dryRun=true`, says what would be deleted and deletes nothing.
         */
        delete: {
            parameters: {
                query?: {
                    /** @description true: say what would be deleted, delete nothing. */
                    dryRun?: "true" | "false";
                };
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
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
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                slug: string;
                                name: string;
                                /** @description True when nothing was deleted (`?dryRun=true`). */
                                dryRun: boolean;
                                /** @description What was deleted with the organization (with dryRun: what would be). */
                                deleted: {
                                    items: number;
                                    apiKeys: number;
                                    memberships: number;
                                };
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Update an organization
         * @description As `stockroom org update`: rename it, turn features on and off. Each real change is an audit event; a key of an organization whose feature is turned off stops reaching it within a second.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description New display name, 1-200 characters. */
                        name?: string;
                        /** @description Features to turn on. Known features: inventory. */
                        enableFeatures?: string[];
                        /** @description Features to turn off. Known features: inventory. */
                        disableFeatures?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
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
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/admin/v1/organizations/{org}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List keys
         * @description As `stockroom key list`: the organization’s keys, oldest first, with their state and last use (recorded a few seconds late); never a secret or a hash.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
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
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            }[];
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a key
         * @description As `stockroom key create`: an organization key, or a user key for a member with `user`, seeing only what `view` allows. The answer carries the key itself, once: it is stored only as a hash.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Make a user key for this member: a user id or email. */
                        user?: string;
                        /** @description A label for the key, 1-100 characters. */
                        name?: string;
                        /** @description Permissions (inventory:view); `[]` for none. Default: inventory:view. */
                        permissions?: string[];
                        /**
                         * @description Expire after this long: a DURATION such as 30d or 12h, at most 36500d.
                         * @example 30d
                         */
                        expiresIn?: string;
                        /**
                         * @description Expire at this instant: an ISO 8601 date or date-time with a zone, in the future, at most 100 years ahead.
                         * @example 2027-01-31T00:00:00Z
                         */
                        expiresAt?: string;
                        /** @description Uses before the key is exhausted. Default: unlimited. */
                        remaining?: number;
                        /**
                         * @description Requests per window as MAX/DURATION (e.g. 600/1m; MAX at most 1000000000, window at most 365d), or "none". Default: 600/1m.
                         * @example 120/1m
                         */
                        rateLimit?: string;
                        /** @description What the key may see; null (or an empty view) for every item, every field. Absent parts are empty. */
                        view?: {
                            /**
                             * @description Filters that must all hold: `status=A[,B…]` (statuses, comma-separated), `location=CODE` (more than 0 there; one of the organization’s locations), `customFields.NAME=VALUE` (string equality on a top-level custom field).
                             * @example [
                             *       "status=Active",
                             *       "location=WH-1"
                             *     ]
                             */
                            where?: string[];
                            /**
                             * @description Item fields to hide, one per entry: description, sku, barcode, status, quantity, stock, customFields, createdAt, updatedAt, or customFields.NAME (_id, organizationId and name cannot be hidden).
                             * @example [
                             *       "barcode",
                             *       "customFields.cost"
                             *     ]
                             */
                            hideFields?: string[];
                            /** @description Every quantity (item and stock) is served as min(quantity, quantityCap); null: no cap. */
                            quantityCap?: number | null;
                        } | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description A key with its new secret. */
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @description The plaintext key: shown in this answer only, never stored, never again. */
                                key: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, LOCATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: USER_NOT_FOUND, NOT_A_MEMBER */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Show a key */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                    /**
                     * @description Key id.
                     * @example 6740a1f2c3d4e5f6a7b8c9d0
                     */
                    keyId: string;
                };
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
                            /** @description A key: everything but its secret and hash. */
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, KEY_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a key’s view
         * @description As `stockroom key update`: `view` replaces the whole view of the key (null clears it: every item, every field). Its next requests see the new view on every process within a second. Recorded as `key.updated` with the view before and after; the view it already has is refused. A revoked key is refused.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                    /**
                     * @description Key id.
                     * @example 6740a1f2c3d4e5f6a7b8c9d0
                     */
                    keyId: string;
                };
                cookie?: never;
            };
            /** @description The whole new view: it replaces the current one; null clears it. */
            requestBody: {
                content: {
                    "application/json": {
                        /** @description What the key may see; null (or an empty view) for every item, every field. Absent parts are empty. */
                        view: {
                            /**
                             * @description Filters that must all hold: `status=A[,B…]` (statuses, comma-separated), `location=CODE` (more than 0 there; one of the organization’s locations), `customFields.NAME=VALUE` (string equality on a top-level custom field).
                             * @example [
                             *       "status=Active",
                             *       "location=WH-1"
                             *     ]
                             */
                            where?: string[];
                            /**
                             * @description Item fields to hide, one per entry: description, sku, barcode, status, quantity, stock, customFields, createdAt, updatedAt, or customFields.NAME (_id, organizationId and name cannot be hidden).
                             * @example [
                             *       "barcode",
                             *       "customFields.cost"
                             *     ]
                             */
                            hideFields?: string[];
                            /** @description Every quantity (item and stock) is served as min(quantity, quantityCap); null: no cap. */
                            quantityCap?: number | null;
                        } | null;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description A key: everything but its secret and hash. */
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, KEY_NOT_FOUND, LOCATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: KEY_REVOKED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        trace?: never;
    };
    "/admin/v1/organizations/{org}/keys/{keyId}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Disable a key
         * @description As `stockroom key disable`: the key stops working (401 KEY_DISABLED) on every process within a second, until it is enabled again. A revoked key is refused.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                    /**
                     * @description Key id.
                     * @example 6740a1f2c3d4e5f6a7b8c9d0
                     */
                    keyId: string;
                };
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
                            /** @description A key: everything but its secret and hash. */
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, KEY_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: KEY_REVOKED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/keys/{keyId}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a key
         * @description As `stockroom key enable`: a disabled key works again. A revoked key is refused.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                    /**
                     * @description Key id.
                     * @example 6740a1f2c3d4e5f6a7b8c9d0
                     */
                    keyId: string;
                };
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
                            /** @description A key: everything but its secret and hash. */
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, KEY_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: KEY_REVOKED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/keys/{keyId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a key
         * @description As `stockroom key revoke`: the key is revoked for good, both its secrets; the API then treats it as unknown.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                    /**
                     * @description Key id.
                     * @example 6740a1f2c3d4e5f6a7b8c9d0
                     */
                    keyId: string;
                };
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
                            /** @description A key: everything but its secret and hash. */
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, KEY_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/keys/{keyId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a key
         * @description As `stockroom key rotate`: a new secret, shown once in the answer; the key keeps its id, name, permissions, expiry, quota and rate limit. Without `grace` the old secret stops at once; with it, it keeps working until then. Rotating again ends an earlier grace period.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                    /**
                     * @description Key id.
                     * @example 6740a1f2c3d4e5f6a7b8c9d0
                     */
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description How long the old secret keeps working: a DURATION of at most 90d. Default: it stops at once.
                         * @example 24h
                         */
                        grace?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description A key with its new secret. */
                            data: {
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                id: string;
                                /** @description The plaintext key: shown in this answer only, never stored, never again. */
                                key: string;
                                /** @example sr_org_a1B2 */
                                prefix: string;
                                name: string;
                                type: "organization" | "user";
                                /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                organizationId: string;
                                userId: string | null;
                                userEmail: string | null;
                                permissions: string[];
                                state: "active" | "disabled" | "expired" | "exhausted" | "revoked";
                                expiresAt: string | null;
                                /** @description Uses left; null: no quota. */
                                remaining: number | null;
                                rateLimit: {
                                    max: number;
                                    windowSeconds: number;
                                } | null;
                                /**
                                 * Format: date-time
                                 * @description ISO 8601 UTC with milliseconds
                                 * @example 2026-11-22T05:01:04.123Z
                                 */
                                createdAt: string;
                                lastUsedAt: string | null;
                                revokedAt: string | null;
                                /** @description After a rotation with a grace period: until when the previous secret works. */
                                previousSecretValidUntil: string | null;
                                /** @description What the key may see, canonical; null: every item, every field. */
                                view: {
                                    /**
                                     * @description Filters an item must all match to exist for the key.
                                     * @example [
                                     *       "status=Active",
                                     *       "location=WH-1"
                                     *     ]
                                     */
                                    where: string[];
                                    /**
                                     * @description Item fields absent from every answer to the key.
                                     * @example [
                                     *       "barcode",
                                     *       "customFields.cost"
                                     *     ]
                                     */
                                    hideFields: string[];
                                    /** @description Every quantity is served as at most this; null: no cap. */
                                    quantityCap: number | null;
                                } | null;
                                /** @description When the view was last set or cleared; null if it never had one. */
                                viewUpdatedAt: string | null;
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, KEY_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: KEY_REVOKED */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/items/bulk-upsert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upsert items in bulk
         * @description Upserts up to 1000 items by sku, with the row checks of `stockroom items import` (a JSON array): rows without a sku are created; a row identical to what is stored is `unchanged` and keeps its updatedAt; a field absent from a row is left as stored. Every row gets an outcome. Changed items reach incremental sync (`updatedSince`) like any other write.
         */
        post: {
            parameters: {
                query?: {
                    /** @description `all-or-nothing` (default): one rejected row writes nothing (422 ITEMS_REJECTED). `per-row`: the valid rows are written and the rejected ones reported. */
                    mode?: "all-or-nothing" | "per-row";
                    /** @description true: compute every outcome, write nothing. */
                    dryRun?: "true" | "false";
                };
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
                cookie?: never;
            };
            /** @description At most 1000 rows; a sku may appear once. */
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        description?: string | null;
                        sku?: string | null;
                        barcode?: string | null;
                        status?: "Draft" | "Active" | "Inactive" | "Discontinued";
                        /** @description A finite number (at most ±1.7976931348623157e+308; beyond it, the request is refused with 400). With `stock`, it must equal the sum of the stock quantities (left out, it becomes it), which must not go beyond it either. */
                        quantity?: number;
                        /**
                         * @description Stock per location: `{ "CODE": quantity }` (a finite number, not negative), each code one of the organization’s locations. Replaces the item’s stock rows (a location left out loses its row); absent, they stay.
                         * @example {
                         *       "WH-1": 12,
                         *       "SHOP": 3
                         *     }
                         */
                        stock?: {
                            [key: string]: unknown;
                        };
                        /** @description A JSON object, at most 16 KiB as compact JSON, nesting objects and arrays at most 32 levels deep (the object itself is level 1). */
                        customFields?: {
                            [key: string]: unknown;
                        };
                    }[];
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                mode: "all-or-nothing" | "per-row";
                                dryRun: boolean;
                                /** @description Whether anything was kept: false on a dry run or an all-or-nothing refusal. */
                                committed: boolean;
                                created: number;
                                updated: number;
                                unchanged: number;
                                failed: number;
                                /** @description One entry per row, in request order. */
                                rows: {
                                    /** @description 0-based position of the row in the request. */
                                    index: number;
                                    sku: string | null;
                                    outcome: "created" | "updated" | "unchanged" | "failed" | "skipped";
                                    /** @description Why the row failed. */
                                    reason?: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: PAYLOAD_TOO_LARGE */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ITEMS_REJECTED (all-or-nothing: nothing was written; `result.rows` gives each row’s outcome and each rejected row’s reason) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                            result: {
                                mode: "all-or-nothing" | "per-row";
                                dryRun: boolean;
                                /** @description Whether anything was kept: false on a dry run or an all-or-nothing refusal. */
                                committed: boolean;
                                created: number;
                                updated: number;
                                unchanged: number;
                                failed: number;
                                /** @description One entry per row, in request order. */
                                rows: {
                                    /** @description 0-based position of the row in the request. */
                                    index: number;
                                    sku: string | null;
                                    outcome: "created" | "updated" | "unchanged" | "failed" | "skipped";
                                    /** @description Why the row failed. */
                                    reason?: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/items/bulk-delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete items in bulk
         * @description As `stockroom items delete`, for up to 1000 items by `_id` and by sku. Each deletion leaves a tombstone, which incremental sync with `includeDeleted=true` reports, and an audit event. An item that does not exist is reported `not_found`; the others are still deleted. Every id and sku is checked before anything is deleted, and the deletions are one transaction: all of them, or none if the database fails midway.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
                cookie?: never;
            };
            /** @description Items to delete by id and by sku: at least one, at most 1000 in all. */
            requestBody: {
                content: {
                    "application/json": {
                        ids?: string[];
                        skus?: string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                deleted: number;
                                notFound: number;
                                /** @description One entry per id, then per sku, in request order. */
                                rows: {
                                    /** @example 6740a1f2c3d4e5f6a7b8c9d0 */
                                    id?: string;
                                    sku?: string;
                                    outcome: "deleted" | "not_found";
                                }[];
                            };
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/locations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List locations
         * @description As `stockroom location list`: the organization’s locations, by code.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
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
                            data: components["schemas"]["def-0"][];
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a location
         * @description As `stockroom location create`: items then take stock there through imports and bulk upserts (`stock`).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description Unique in the organization, case-sensitive: 1–32 characters of A-Z, a-z, 0-9, ".", "_", "-".
                         * @example WH-1
                         */
                        code: string;
                        /** @description What people call the place (1–200 characters). */
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: components["schemas"]["def-0"];
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: CONFLICT */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: UNSUPPORTED_MEDIA_TYPE */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/organizations/{org}/locations/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a location
         * @description As `stockroom location remove`: its stock rows go with it, and each item that had one changes (its quantity becomes the sum of the rows left, or 0), in the change feed and webhooks.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description Organization id or slug.
                     * @example acme
                     */
                    org: string;
                    /**
                     * @description The location’s code.
                     * @example WH-1
                     */
                    code: string;
                };
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
                            data: components["schemas"]["def-0"];
                            itemsChanged: number;
                        };
                    };
                };
                /** @description Error: INVALID_REQUEST */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_UNAUTHORIZED */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ORGANIZATION_NOT_FOUND, LOCATION_NOT_FOUND */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: ADMIN_RATE_LIMITED */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: INTERNAL_ERROR */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
                /** @description Error: SERVICE_UNAVAILABLE */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                /** @enum {string} */
                                code: "INVALID_REQUEST" | "ADMIN_UNAUTHORIZED" | "ADMIN_RATE_LIMITED" | "ORGANIZATION_NOT_FOUND" | "KEY_NOT_FOUND" | "LOCATION_NOT_FOUND" | "ROUTE_NOT_FOUND" | "METHOD_NOT_ALLOWED" | "SLUG_TAKEN" | "KEY_REVOKED" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "USER_NOT_FOUND" | "NOT_A_MEMBER" | "ITEMS_REJECTED" | "INTERNAL_ERROR" | "SERVICE_UNAVAILABLE";
                                /** @description What was wrong and how to fix it. */
                                message: string;
                                status: number;
                                requestId: string;
                                /** @description The body field, path segment or query parameter at fault. */
                                param?: string;
                                /** Format: uri */
                                docUrl: string;
                            };
                        };
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** AdminLocation */
        "def-0": {
            id: string;
            organizationId: string;
            code: string;
            name: string;
            /** Format: date-time */
            createdAt: string;
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
