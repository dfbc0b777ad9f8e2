// Generated from the OpenAPI document (GET /docs/json) by openapi-typescript: do not edit; run `npm run openapi`.
export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness and readiness: database reachable, webhook inbox counts
         * @description No bearer token. 200 when the database answers; counts of webhook events by state and signature refusals since start.
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "status": "ok",
                         *       "database": "postgres",
                         *       "network": "simulator",
                         *       "webhook_events": {
                         *         "APPLIED": 1204,
                         *         "RECEIVED": 0
                         *       },
                         *       "webhooks_rejected": 0,
                         *       "webhook_items_rejected": 0
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @enum {string} */
                            status: "ok";
                            database: string;
                            network: string;
                            webhook_events: {
                                [key: string]: number;
                            };
                            /** @description webhook POSTs refused for their signature since this process started */
                            webhooks_rejected: number;
                            /** @description status items of signed webhook bodies set apart because they cannot be applied (kept with their reason in webhook_rejected_items for the webhook retention) */
                            webhook_items_rejected: number;
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
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics (addition)
         * @description Prometheus text exposition format 0.0.4 (`text/plain`): bulk-send counters and queue depth per channel, oldest due age, webhook inbox lag, HTTP latency histograms by route pattern, database pool use, process metrics. Requires `Authorization: Bearer <METRICS_TOKEN>` (not a company token); 404 while METRICS_TOKEN is unset.
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
                /** @description Prometheus text format */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example # HELP tms_queue_depth Bulk-send rows per channel not yet handed to the network
                         *     # TYPE tms_queue_depth gauge
                         *     tms_queue_depth{channel_id="110000000000001"} 120
                         */
                        "text/plain": string;
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": components["schemas"]["ErrorEnvelope"];
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
         * Liveness probe (addition)
         * @description The process is up and its event loop answers. Never touches the database; 200 even while draining.
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
                        /**
                         * @example {
                         *       "status": "alive"
                         *     }
                         */
                        "application/json": {
                            /** @enum {string} */
                            status: "alive";
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
         * Readiness probe (addition)
         * @description 200 when the database answers, every migration is applied and no shutdown has begun; 503 otherwise, with the reason. A load balancer stops sending traffic on 503; the process keeps serving what reaches it while it drains.
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
                        /**
                         * @example {
                         *       "status": "ready",
                         *       "database": true,
                         *       "migrations": true,
                         *       "draining": false
                         *     }
                         */
                        "application/json": {
                            /** @description ready, or why not: draining for a shutdown, the database did not answer, or migrations are missing */
                            status: "ready" | "draining" | "database_unavailable" | "migrations_pending";
                            /** @description the database answered `select 1` within the timeout */
                            database: boolean;
                            /** @description every migration this build knows is applied */
                            migrations: boolean;
                            /** @description a shutdown has begun (SIGTERM/SIGINT) */
                            draining: boolean;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        /**
                         * @example {
                         *       "status": "draining",
                         *       "database": true,
                         *       "migrations": true,
                         *       "draining": true
                         *     }
                         */
                        "application/json": {
                            /** @description ready, or why not: draining for a shutdown, the database did not answer, or migrations are missing */
                            status: "ready" | "draining" | "database_unavailable" | "migrations_pending";
                            /** @description the database answered `select 1` within the timeout */
                            database: boolean;
                            /** @description every migration this build knows is applied */
                            migrations: boolean;
                            /** @description a shutdown has begun (SIGTERM/SIGINT) */
                            draining: boolean;
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
        patch?: never;
        trace?: never;
    };
    "/webhooks/whatsapp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verification handshake (hub.mode=subscribe, hub.verify_token, hub.challenge)
         * @description Meta calls this once when the callback URL is set: with hub.mode=subscribe and hub.verify_token equal to WEBHOOK_VERIFY_TOKEN the answer is hub.challenge as plain text; otherwise 403 WEBHOOK_VERIFY_FAILED. No bearer token.
         */
        get: {
            parameters: {
                query?: {
                    /** @example subscribe */
                    "hub.mode"?: string;
                    /** @example my-verify-token */
                    "hub.verify_token"?: string;
                    /** @example 1158201444 */
                    "hub.challenge"?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description hub.challenge, as plain text */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Network events (statuses, template and phone quality updates), signed with the app secret
         * @description Meta posts message statuses, template review/category/components/quality updates and phone quality updates here. The X-Hub-Signature-256 header is checked over the raw body before anything is parsed; the event is answered once it is stored (applied in the same transaction when the database keeps up, else applied after, in order). No bearer token: the signature is the authentication.
         */
        post: {
            parameters: {
                query?: never;
                header: {
                    /**
                     * @description sha256=<hex HMAC-SHA256 of the raw body with APP_SECRET>; missing or wrong: 401 WEBHOOK_SIGNATURE_INVALID, nothing stored
                     * @example sha256=6f1b0c3e5d0a4a449f0e2f3c1b1f6d7e6f1b0c3e5d0a4a449f0e2f3c1b1f6d7e
                     */
                    "x-hub-signature-256": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "object": "whatsapp_business_account",
                     *       "entry": [
                     *         {
                     *           "id": "100000000000001",
                     *           "changes": [
                     *             {
                     *               "field": "messages",
                     *               "value": {
                     *                 "messaging_product": "whatsapp",
                     *                 "metadata": {
                     *                   "display_phone_number": "15550100001",
                     *                   "phone_number_id": "110000000000001"
                     *                 },
                     *                 "statuses": [
                     *                   {
                     *                     "id": "wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=",
                     *                     "status": "delivered",
                     *                     "timestamp": "1795446247",
                     *                     "recipient_id": "905551234567"
                     *                   }
                     *                 ]
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @example whatsapp_business_account */
                        object: string;
                        entry: {
                            /** @description the WABA id */
                            id: string;
                            changes: {
                                /** @description messages, message_template_status_update, template_category_update, message_template_components_update, message_template_quality_update, phone_number_quality_update */
                                field: string;
                                /** @description the event, in the network's shape for its field */
                                value: {
                                    [key: string]: unknown;
                                };
                            }[];
                        }[];
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "event_id": "6740f1a2c3d4e5f60123aa55"
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            event_id: string;
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/template/waba-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Phone status of a channel (quality in quality_score)
         * @description The channel's status, quality and messaging tier, refreshed from the network when older than 30 s. A channel of another company answers 404 CHANNEL_NOT_FOUND.
         */
        get: {
            parameters: {
                query: {
                    /**
                     * @description the channel (phone number id)
                     * @example 110000000000001
                     */
                    channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "status": "CONNECTED",
                         *         "id": "110000000000001",
                         *         "verified_name": "Demo Company",
                         *         "display_phone_number": "+1 555-010-0001",
                         *         "messaging_limit_tier": "TIER_250",
                         *         "quality_score": "GREEN"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                /** @description Status of the phone number (CONNECTED, FLAGGED, RESTRICTED, ...) */
                                status: string;
                                /** @description Phone number id = channel_id */
                                id: string;
                                verified_name: string;
                                display_phone_number: string;
                                /** @description The network's messaging limit (TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED; older numbers TIER_50, TIER_1K); UNKNOWN when the network names none */
                                messaging_limit_tier: string;
                                quality_score: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/template": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The templates of the channel's WABA
         * @description Every template of the WABA the channel belongs to, including those made in WhatsApp Manager (imported on the way), with review statuses refreshed from the network when stale.
         */
        get: {
            parameters: {
                query: {
                    /**
                     * @description the channel (phone number id)
                     * @example 110000000000001
                     */
                    channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "items": [
                         *         {
                         *           "id": "6740f1a2c3d4e5f601234567",
                         *           "name": "summer_sale",
                         *           "language": "en_US",
                         *           "category": "MARKETING",
                         *           "status": "APPROVED",
                         *           "components": [
                         *             {
                         *               "type": "HEADER",
                         *               "format": "TEXT",
                         *               "text": "Summer sale"
                         *             },
                         *             {
                         *               "type": "BODY",
                         *               "text": "Hi {{1}}, use {{2}} for 10% off.",
                         *               "example": {
                         *                 "body_text": [
                         *                   [
                         *                     "Ayse",
                         *                     "SAVE10"
                         *                   ]
                         *                 ]
                         *               }
                         *             },
                         *             {
                         *               "type": "FOOTER",
                         *               "text": "Reply STOP to opt out"
                         *             },
                         *             {
                         *               "type": "BUTTONS",
                         *               "buttons": [
                         *                 {
                         *                   "type": "URL",
                         *                   "text": "Shop",
                         *                   "url": "https://shop.example.com/{{1}}",
                         *                   "example": [
                         *                     "https://shop.example.com/summer"
                         *                   ]
                         *                 }
                         *               ]
                         *             }
                         *           ],
                         *           "rejected_reason": null,
                         *           "quality_score": "GREEN",
                         *           "channel_id": "110000000000001",
                         *           "created_at": "2026-11-23T15:04:05.000Z",
                         *           "updated_at": "2026-11-23T15:04:05.000Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            items: {
                                id: string;
                                name: string;
                                language: string;
                                category: string;
                                /** @description APPROVED, PENDING, REJECTED, PAUSED, DISABLED, ... */
                                status: string;
                                components: components["schemas"]["TemplateComponent"][];
                                rejected_reason: string | null;
                                quality_score: string | null;
                                channel_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a template (v1); submitted to the network for review, starts PENDING
         * @description Checks the template against the network's rules and the service's (MARKETING, at most 4 body variables), then submits it; the review status arrives by webhook (GET shows it). Every broken rule is one 400 TEMPLATE_INVALID element naming its path (components[1].buttons[0].url). Media headers need example.header_handle (POST /api/v1/media). Optional Idempotency-Key header.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /**
                     * @description addition: 1–255 printable ASCII characters. A retry with the same key and body within 24 h gets the first answer (Idempotent-Replayed: true) and runs nothing; another body under the key is 409 IDEMPOTENCY_KEY_REUSED.
                     * @example order-86019-send
                     */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "summer_sale",
                     *       "category": "MARKETING",
                     *       "language": "en_US",
                     *       "components": [
                     *         {
                     *           "type": "HEADER",
                     *           "format": "TEXT",
                     *           "text": "Summer sale"
                     *         },
                     *         {
                     *           "type": "BODY",
                     *           "text": "Hi {{1}}, use {{2}} for 10% off.",
                     *           "example": {
                     *             "body_text": [
                     *               [
                     *                 "Ayse",
                     *                 "SAVE10"
                     *               ]
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "type": "FOOTER",
                     *           "text": "Reply STOP to opt out"
                     *         },
                     *         {
                     *           "type": "BUTTONS",
                     *           "buttons": [
                     *             {
                     *               "type": "URL",
                     *               "text": "Shop",
                     *               "url": "https://shop.example.com/{{1}}",
                     *               "example": [
                     *                 "https://shop.example.com/summer"
                     *               ]
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "allow_category_change": false,
                     *       "channel_id": "110000000000001"
                     *     }
                     */
                    "application/json": {
                        /** @description lower-case letters, digits and _, at most 512 */
                        name: string;
                        /** @description a value of the categories list (MARKETING) */
                        category: string;
                        /** @description a value of the languages list, e.g. en_US */
                        language: string;
                        components: components["schemas"]["TemplateComponentInput"][];
                        /** @description stored; not forwarded (the network refuses it since 2025-04-09) */
                        allow_category_change?: boolean;
                        /** @description the channel (phone number id) */
                        channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "id": "6740f1a2c3d4e5f601234567",
                         *         "status": "PENDING"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                id: string;
                                /** @description PENDING until the network reviews it */
                                status: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        /**
         * Delete a template (at the network too; the name is blocked for 30 days)
         * @description Deletes the template at the network and here; its name cannot be used on the WABA for 30 days (the network's rule).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "id": "6740f1a2c3d4e5f601234567"
                     *     }
                     */
                    "application/json": {
                        id: string;
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
                        /**
                         * @example {
                         *       "success": true
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent-app/message-template/templatev2": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a template (v2, carousel capable, lower-case component types accepted)
         * @description Like the v1 create, with the template under message_template and CAROUSEL components (2–10 cards, each a media header, an optional body and buttons). media_names maps each header_handle used to a file name. Optional Idempotency-Key header.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /**
                     * @description addition: 1–255 printable ASCII characters. A retry with the same key and body within 24 h gets the first answer (Idempotent-Replayed: true) and runs nothing; another body under the key is 409 IDEMPOTENCY_KEY_REUSED.
                     * @example order-86019-send
                     */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "message_template": {
                     *         "name": "summer_carousel",
                     *         "category": "MARKETING",
                     *         "language": "en_US",
                     *         "components": [
                     *           {
                     *             "type": "body",
                     *             "text": "Hi {{1}}, our summer picks:",
                     *             "example": {
                     *               "body_text": [
                     *                 [
                     *                   "Ayse"
                     *                 ]
                     *               ]
                     *             }
                     *           },
                     *           {
                     *             "type": "carousel",
                     *             "cards": [
                     *               {
                     *                 "components": [
                     *                   {
                     *                     "type": "header",
                     *                     "format": "image",
                     *                     "example": {
                     *                       "header_handle": [
                     *                         "4::aW1hZ2UvcG5n:ARbExampleHandle"
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "type": "body",
                     *                     "text": "Use {{1}} at checkout.",
                     *                     "example": {
                     *                       "body_text": [
                     *                         [
                     *                           "SAVE10"
                     *                         ]
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "type": "buttons",
                     *                     "buttons": [
                     *                       {
                     *                         "type": "url",
                     *                         "text": "Shop",
                     *                         "url": "https://shop.example.com/{{1}}",
                     *                         "example": [
                     *                           "https://shop.example.com/summer"
                     *                         ]
                     *                       }
                     *                     ]
                     *                   }
                     *                 ]
                     *               },
                     *               {
                     *                 "components": [
                     *                   {
                     *                     "type": "header",
                     *                     "format": "image",
                     *                     "example": {
                     *                       "header_handle": [
                     *                         "4::aW1hZ2UvcG5n:ARbExampleHandle"
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "type": "body",
                     *                     "text": "Use {{1}} at checkout.",
                     *                     "example": {
                     *                       "body_text": [
                     *                         [
                     *                           "SAVE10"
                     *                         ]
                     *                       ]
                     *                     }
                     *                   },
                     *                   {
                     *                     "type": "buttons",
                     *                     "buttons": [
                     *                       {
                     *                         "type": "url",
                     *                         "text": "Shop",
                     *                         "url": "https://shop.example.com/{{1}}",
                     *                         "example": [
                     *                           "https://shop.example.com/summer"
                     *                         ]
                     *                       }
                     *                     ]
                     *                   }
                     *                 ]
                     *               }
                     *             ]
                     *           }
                     *         ]
                     *       },
                     *       "channel_id": "110000000000001",
                     *       "media_names": {
                     *         "4::aW1hZ2UvcG5n:ARbExampleHandle": "summer.png"
                     *       }
                     *     }
                     */
                    "application/json": {
                        message_template: {
                            /** @description lower-case letters, digits and _, at most 512 */
                            name: string;
                            /** @description a value of the categories list (MARKETING) */
                            category: string;
                            /** @description a value of the languages list, e.g. en_US */
                            language: string;
                            components: components["schemas"]["TemplateComponentInput"][];
                        };
                        /** @description the channel (phone number id) */
                        channel_id: string;
                        /** @description media handle used in header_handle → file name */
                        media_names?: {
                            [key: string]: string;
                        };
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "id": "6740f1a2c3d4e5f601234567",
                         *         "status": "PENDING"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                id: string;
                                /** @description PENDING until the network reviews it */
                                status: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/template/get-by-id": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One template
         * @description A template of the channel's WABA by id; another company's id answers 404 NOT_FOUND like a missing one.
         */
        get: {
            parameters: {
                query: {
                    /** @example 6740f1a2c3d4e5f601234567 */
                    template_id: string;
                    /** @example 110000000000001 */
                    channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "message_template": {
                         *           "id": "6740f1a2c3d4e5f601234567",
                         *           "name": "summer_sale",
                         *           "language": "en_US",
                         *           "category": "MARKETING",
                         *           "status": "APPROVED",
                         *           "components": [
                         *             {
                         *               "type": "HEADER",
                         *               "format": "TEXT",
                         *               "text": "Summer sale"
                         *             },
                         *             {
                         *               "type": "BODY",
                         *               "text": "Hi {{1}}, use {{2}} for 10% off.",
                         *               "example": {
                         *                 "body_text": [
                         *                   [
                         *                     "Ayse",
                         *                     "SAVE10"
                         *                   ]
                         *                 ]
                         *               }
                         *             },
                         *             {
                         *               "type": "FOOTER",
                         *               "text": "Reply STOP to opt out"
                         *             },
                         *             {
                         *               "type": "BUTTONS",
                         *               "buttons": [
                         *                 {
                         *                   "type": "URL",
                         *                   "text": "Shop",
                         *                   "url": "https://shop.example.com/{{1}}",
                         *                   "example": [
                         *                     "https://shop.example.com/summer"
                         *                   ]
                         *                 }
                         *               ]
                         *             }
                         *           ],
                         *           "rejected_reason": null,
                         *           "quality_score": "GREEN",
                         *           "channel_id": "110000000000001",
                         *           "created_at": "2026-11-23T15:04:05.000Z",
                         *           "updated_at": "2026-11-23T15:04:05.000Z"
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                message_template: {
                                    id: string;
                                    name: string;
                                    language: string;
                                    category: string;
                                    /** @description APPROVED, PENDING, REJECTED, PAUSED, DISABLED, ... */
                                    status: string;
                                    components: components["schemas"]["TemplateComponent"][];
                                    rejected_reason: string | null;
                                    quality_score: string | null;
                                    channel_id: string;
                                    /** Format: date-time */
                                    created_at: string;
                                    /** Format: date-time */
                                    updated_at: string;
                                };
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/single-messagev2": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send one template message (queued, handed to the network at most once)
         * @description Checks everything first (template APPROVED and of the channel's WABA, parameters against the template, the recipient: an E.164 phone_number and/or a BSUID `recipient`, one of them required, channel not blocked, tier quota), then queues the message; the dispatcher hands it to the network at most once. message_template carries the parameters: BODY/header text values (with parameter_name for a NAMED template), button variables and carousel cards — see docs/send-parameters.md. A value the template does not take (body values past its variables, a button it lacks, a field an entry does not have) is 400 PARAMETERS_INVALID naming it, never dropped. The status follows in POST /api/v1/messages. Optional Idempotency-Key header.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /**
                     * @description addition: 1–255 printable ASCII characters. A retry with the same key and body within 24 h gets the first answer (Idempotent-Replayed: true) and runs nothing; another body under the key is 409 IDEMPOTENCY_KEY_REUSED.
                     * @example order-86019-send
                     */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        channel_id: string;
                        /** @description digits with country code; this or `recipient` (or both) is required */
                        phone_number?: string;
                        /**
                         * @description addition: the customer's business-scoped user id (BSUID, `CC.<id>`, or a parent BSUID `CC.ENT.<id>`), for a customer known only by it; when phone_number is given too, the message goes to the phone number (as on the network) and the record keeps both
                         * @example US.13491208655302741918
                         */
                        recipient?: string;
                        message_template_id: string;
                        full_name?: string;
                        /** @description the parameters, by template part; leave out for a template without variables */
                        message_template?: components["schemas"]["SendComponent"][];
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "message_id": "6740f1a2c3d4e5f60123abcd"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                message_id: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a bulk send (rows as objects)
         * @description Rows as objects: params fills the BODY variables in order (a NAMED template: in order of first appearance of each name), text_header_param the header (text, or a media link/id), url_button_param/url_button_param2 the URL buttons, copy_code_param the coupon. Formats with complete examples: docs/send-parameters.md. The body is read as a stream (up to 256 MB, 1,000,000 rows); every row is checked before anything is stored, a bad one is 400 naming rows[i]. A value the template does not take (a params entry past its BODY variables, a url_button_param it has no URL button for, a column it has no part for) is refused like a missing one, naming it (rows[i].params[k], rows[i].url_button_param, param_headers[k]); it is never dropped. Repeated numbers are sent once (duplicate_count). Optional Idempotency-Key header. Addition: `dry_run: true` checks exactly as a start and stores nothing; it answers the row count, duplicates removed and the tier quota needed and left; `send_name` names the bulk send in lists and reports.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /**
                     * @description addition: 1–255 printable ASCII characters. A retry with the same key and body within 24 h gets the first answer (Idempotent-Replayed: true) and runs nothing; another body under the key is 409 IDEMPOTENCY_KEY_REUSED.
                     * @example order-86019-send
                     */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "message_template_id": "6740f1a2c3d4e5f601234567",
                     *       "rows": [
                     *         {
                     *           "id": 1,
                     *           "phone_number": "905551234567",
                     *           "full_name": "Ayse Yilmaz",
                     *           "params": [
                     *             "Ayse",
                     *             "SAVE10"
                     *           ],
                     *           "url_button_param": "summer"
                     *         },
                     *         {
                     *           "id": 2,
                     *           "phone_number": "905551234568",
                     *           "full_name": "Mehmet Demir",
                     *           "params": [
                     *             "Mehmet",
                     *             "SAVE20"
                     *           ],
                     *           "url_button_param": "autumn"
                     *         }
                     *       ],
                     *       "total_time": 60,
                     *       "channel_id": "110000000000001"
                     *     }
                     */
                    "application/json": {
                        message_template_id: string;
                        rows: {
                            id?: number;
                            /** @description digits with the country code; this or user_id (or both) is required */
                            phone_number?: (string | number) | null;
                            /** @description addition: the customer's BSUID (`CC.<id>`, or a parent BSUID `CC.ENT.<id>`) when the phone number is not known; with both, the message goes to the phone number */
                            user_id?: (string | number) | null;
                            full_name?: (string | number) | null;
                            url_button_param?: (string | number) | null;
                            url_button_param2?: (string | number) | null;
                            /** @description header text parameter, or the media link/id of an IMAGE/VIDEO/DOCUMENT header */
                            text_header_param?: (string | number) | null;
                            copy_code_param?: (string | number) | null;
                            /** @description body parameters {{1}}, {{2}}, ... */
                            params?: (string | number)[];
                        }[];
                        /** @description seconds to spread the sends over (at most 2592000, 30 days); 0 = as fast as the channel allows */
                        total_time: number;
                        channel_id: string;
                        /**
                         * @description addition: true checks every row exactly as a start would and stores, queues and sends nothing; the answer counts the rows and the tier quota they need
                         * @default false
                         */
                        dry_run?: boolean;
                        /**
                         * Format: date-time
                         * @description Addition: start at this time instead of now (ISO 8601 with an offset, later than now, at most 90 days ahead). Until then the bulk send is SCHEDULED and its rows NONE; total_time spreads from the actual start.
                         * @example 2026-11-24T09:00:00+03:00
                         */
                        scheduled_at?: string;
                        /**
                         * @description Addition: the bulk send's own name (one line, at most 120 characters, trimmed; blank or null = no name), shown as send_name in the reports list, the report detail and its exports. The list item's name stays the template's name.
                         * @example Spring sale – VIP customers
                         */
                        send_name?: string | null;
                        /**
                         * @description Addition: how long the network keeps trying to deliver each message when it goes through the Marketing Messages API (a MARKETING template on a channel with marketing_messages on), 43200 (12 h) to 2592000 (30 days); null = the network default. Only for MARKETING templates (else 400); ignored by /messages sends.
                         * @example 86400
                         */
                        message_send_ttl_seconds?: number | null;
                        /**
                         * @description Addition: true leaves out the rows that fail their check instead of refusing the whole start; they are counted (skipped_count) and listed (send-wizard/reports/skipped; a dry run answers the first 100 in skipped_rows). A list with no valid row is still a 400.
                         * @default false
                         */
                        skip_invalid_rows?: boolean;
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
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                send_wizard_id: string;
                                /** @description unique rows stored */
                                summary: number;
                                /** @description rows left out because their recipient (phone number or BSUID, or one the network linked to it) came earlier */
                                duplicate_count: number;
                                /** @description addition, with skip_invalid_rows only: rows left out as invalid, listed in send-wizard/reports/skipped */
                                skipped_count?: number;
                            };
                        } | {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                /** @enum {boolean} */
                                dry_run: true;
                                /** @description unique rows a start would store (duplicate recipients removed): the start's and the list item's summary */
                                summary: number;
                                /** @description rows whose recipient an earlier row already has: the start's and the list item's duplicate_count */
                                duplicate_count: number;
                                /** @description unique recipients the channel has not reached in the rolling 24 h (each takes a tier slot) */
                                tier_needed_24h: number;
                                /** @description new recipients the tier allows now (the channel's tier_left_24h); null when the tier has no cap */
                                tier_left_24h: number | null;
                                /**
                                 * @description what the rows would cost at Meta's list price if every one were delivered (the company's rate card; the template's pricing category, marketing_lite through the Marketing Messages API); not an invoice
                                 * @example {
                                 *       "currency": "USD",
                                 *       "estimated_cost": 0.2472,
                                 *       "complete": true,
                                 *       "billable_count": 4,
                                 *       "unknown_price_count": 0,
                                 *       "by_market": [
                                 *         {
                                 *           "market": "AR",
                                 *           "category": "marketing",
                                 *           "billable_count": 4,
                                 *           "price": 0.0618,
                                 *           "cost": 0.2472
                                 *         }
                                 *       ],
                                 *       "rate_card_effective_date": "2025-07-01",
                                 *       "rate_card_source": "default",
                                 *       "note": "Estimated at Meta's list price per delivered message; not an invoice."
                                 *     }
                                 */
                                estimate: {
                                    currency: string;
                                    /** @description sum of the lines with a known price */
                                    estimated_cost: number;
                                    /** @description false when some billable message has no known price (unknown_price_count) */
                                    complete: boolean;
                                    billable_count: number;
                                    unknown_price_count: number;
                                    by_market: {
                                        /** @description null: the recipient’s country is unknown */
                                        market: string | null;
                                        /**
                                         * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                         * @example marketing
                                         */
                                        category: string;
                                        billable_count: number;
                                        /** @description null: the card has no figure (unknown, not priced) */
                                        price: number | null;
                                        cost: number | null;
                                    }[];
                                    rate_card_effective_date: string;
                                    rate_card_source: "default" | "company";
                                    /** @description always: Meta's list price, not an invoice */
                                    note: string;
                                };
                                /** @description with skip_invalid_rows only: rows a start would leave out as invalid */
                                skipped_count?: number;
                                /** @description with skip_invalid_rows only: the first 100 of them */
                                skipped_rows?: {
                                    /** @description the row's number as the client knows it: its place in start's rows (from 1), startv2's row-number cell, a file's sheet row */
                                    row: number;
                                    /** @description start's row id when it gave one */
                                    row_id: number | null;
                                    /** @description the phone as given (up to 64 characters) */
                                    phone_number: string | null;
                                    /** @description the first problem's field, as a refused start would name it */
                                    field: string | null;
                                    /** @description its problems */
                                    message: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/startv2": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a bulk send (rows as arrays, columns named by param_headers; carousel capable)
         * @description Rows as arrays: the row number, the phone, then one cell per param_headers column from the third on (BODY.<n>, HEADER.<n>, HEADER, BUTTONS.<i>, CAROUSEL.<card>.BODY.<n>, CAROUSEL.<card>.BUTTONS.<i>, CAROUSEL.<card>.HEADER, FULL_NAME; BODY.<name> for a NAMED template). Formats with complete examples: docs/send-parameters.md. The body is read as a stream (up to 256 MB, 1,000,000 rows); every row is checked before anything is stored, a bad one is 400 naming rows[i]. A value the template does not take (a params entry past its BODY variables, a url_button_param it has no URL button for, a column it has no part for) is refused like a missing one, naming it (rows[i].params[k], rows[i].url_button_param, param_headers[k]); it is never dropped. Repeated numbers are sent once (duplicate_count). Optional Idempotency-Key header. Addition: `dry_run: true` checks exactly as a start and stores nothing; it answers the row count, duplicates removed and the tier quota needed and left; `send_name` names the bulk send in lists and reports.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /**
                     * @description addition: 1–255 printable ASCII characters. A retry with the same key and body within 24 h gets the first answer (Idempotent-Replayed: true) and runs nothing; another body under the key is 409 IDEMPOTENCY_KEY_REUSED.
                     * @example order-86019-send
                     */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "message_template_id": "6740f1a2c3d4e5f601234567",
                     *       "rows": [
                     *         [
                     *           1,
                     *           "905551234567",
                     *           "Ayse",
                     *           "SAVE10",
                     *           "summer"
                     *         ],
                     *         [
                     *           2,
                     *           "905551234568",
                     *           "Mehmet",
                     *           "SAVE20",
                     *           "autumn"
                     *         ]
                     *       ],
                     *       "total_time": 60,
                     *       "channel_id": "110000000000001",
                     *       "param_headers": [
                     *         "id",
                     *         "phone_number",
                     *         "BODY.1",
                     *         "BODY.2",
                     *         "BUTTONS.0"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        message_template_id: string;
                        /** @description [row number (an integer), phone, cells in param_headers order]: as many cells as param_headers has entries; the phone cell may be null or blank when a USER_ID column gives the BSUID */
                        rows: ((string | number) | null)[][];
                        total_time: number;
                        channel_id: string;
                        /** @description row-number column, phone column, then BODY.<n>, HEADER.<n>, HEADER (media), BUTTONS.<i>, CAROUSEL.<card>.BODY.<n>, CAROUSEL.<card>.BUTTONS.<i>, CAROUSEL.<card>.HEADER, FULL_NAME, USER_ID (addition: the BSUID, `CC.<id>`, for rows whose phone cell is empty; with both, the message goes to the phone number); a named template ({{first_name}}) takes BODY.<name> / HEADER.<name> or the position BODY.<n> */
                        param_headers: string[];
                        /**
                         * @description addition: true checks every row exactly as a start would and stores, queues and sends nothing; the answer counts the rows and the tier quota they need
                         * @default false
                         */
                        dry_run?: boolean;
                        /**
                         * Format: date-time
                         * @description Addition: start at this time instead of now (ISO 8601 with an offset, later than now, at most 90 days ahead). Until then the bulk send is SCHEDULED and its rows NONE; total_time spreads from the actual start.
                         * @example 2026-11-24T09:00:00+03:00
                         */
                        scheduled_at?: string;
                        /**
                         * @description Addition: the bulk send's own name (one line, at most 120 characters, trimmed; blank or null = no name), shown as send_name in the reports list, the report detail and its exports. The list item's name stays the template's name.
                         * @example Spring sale – VIP customers
                         */
                        send_name?: string | null;
                        /**
                         * @description Addition: how long the network keeps trying to deliver each message when it goes through the Marketing Messages API (a MARKETING template on a channel with marketing_messages on), 43200 (12 h) to 2592000 (30 days); null = the network default. Only for MARKETING templates (else 400); ignored by /messages sends.
                         * @example 86400
                         */
                        message_send_ttl_seconds?: number | null;
                        /**
                         * @description Addition: true leaves out the rows that fail their check instead of refusing the whole start; they are counted (skipped_count) and listed (send-wizard/reports/skipped; a dry run answers the first 100 in skipped_rows). A list with no valid row is still a 400.
                         * @default false
                         */
                        skip_invalid_rows?: boolean;
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
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                send_wizard_id: string;
                                /** @description unique rows stored */
                                summary: number;
                                /** @description rows left out because their recipient (phone number or BSUID, or one the network linked to it) came earlier */
                                duplicate_count: number;
                                /** @description addition, with skip_invalid_rows only: rows left out as invalid, listed in send-wizard/reports/skipped */
                                skipped_count?: number;
                            };
                        } | {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                /** @enum {boolean} */
                                dry_run: true;
                                /** @description unique rows a start would store (duplicate recipients removed): the start's and the list item's summary */
                                summary: number;
                                /** @description rows whose recipient an earlier row already has: the start's and the list item's duplicate_count */
                                duplicate_count: number;
                                /** @description unique recipients the channel has not reached in the rolling 24 h (each takes a tier slot) */
                                tier_needed_24h: number;
                                /** @description new recipients the tier allows now (the channel's tier_left_24h); null when the tier has no cap */
                                tier_left_24h: number | null;
                                /**
                                 * @description what the rows would cost at Meta's list price if every one were delivered (the company's rate card; the template's pricing category, marketing_lite through the Marketing Messages API); not an invoice
                                 * @example {
                                 *       "currency": "USD",
                                 *       "estimated_cost": 0.2472,
                                 *       "complete": true,
                                 *       "billable_count": 4,
                                 *       "unknown_price_count": 0,
                                 *       "by_market": [
                                 *         {
                                 *           "market": "AR",
                                 *           "category": "marketing",
                                 *           "billable_count": 4,
                                 *           "price": 0.0618,
                                 *           "cost": 0.2472
                                 *         }
                                 *       ],
                                 *       "rate_card_effective_date": "2025-07-01",
                                 *       "rate_card_source": "default",
                                 *       "note": "Estimated at Meta's list price per delivered message; not an invoice."
                                 *     }
                                 */
                                estimate: {
                                    currency: string;
                                    /** @description sum of the lines with a known price */
                                    estimated_cost: number;
                                    /** @description false when some billable message has no known price (unknown_price_count) */
                                    complete: boolean;
                                    billable_count: number;
                                    unknown_price_count: number;
                                    by_market: {
                                        /** @description null: the recipient’s country is unknown */
                                        market: string | null;
                                        /**
                                         * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                         * @example marketing
                                         */
                                        category: string;
                                        billable_count: number;
                                        /** @description null: the card has no figure (unknown, not priced) */
                                        price: number | null;
                                        cost: number | null;
                                    }[];
                                    rate_card_effective_date: string;
                                    rate_card_source: "default" | "company";
                                    /** @description always: Meta's list price, not an invoice */
                                    note: string;
                                };
                                /** @description with skip_invalid_rows only: rows a start would leave out as invalid */
                                skipped_count?: number;
                                /** @description with skip_invalid_rows only: the first 100 of them */
                                skipped_rows?: {
                                    /** @description the row's number as the client knows it: its place in start's rows (from 1), startv2's row-number cell, a file's sheet row */
                                    row: number;
                                    /** @description start's row id when it gave one */
                                    row_id: number | null;
                                    /** @description the phone as given (up to 64 characters) */
                                    phone_number: string | null;
                                    /** @description the first problem's field, as a refused start would name it */
                                    field: string | null;
                                    /** @description its problems */
                                    message: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a bulk send: it is STOPPED at once and its rows not yet handed to the network become CANCELLED
         * @description The answer comes at once whatever the size: from then on no row of the bulk send is handed to the network. Rows not yet handed over are cancelled in batches of 1,000, the first before the answer (`cancelled_count`), the rest right after (`cancelling_count` here and in the reports list, 0 once done; counters exact at the end). Rows already handed to the network keep their status and counters; stopping a finished bulk send is 409 BULK_SEND_FINISHED.
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
                    /**
                     * @example {
                     *       "send_wizard_id": "6740f1a2c3d4e5f60123ef01",
                     *       "channel_id": "110000000000001"
                     *     }
                     */
                    "application/json": {
                        send_wizard_id: string;
                        channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "send_wizard_id": "6740f1a2c3d4e5f60123ef01",
                         *         "status": "STOPPED",
                         *         "cancelled_count": 1000,
                         *         "cancelling_count": 520
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                send_wizard_id: string;
                                /** @enum {string} */
                                status: "STOPPED";
                                /** @description rows cancelled before this answer (at most 1,000) */
                                cancelled_count: number;
                                /** @description addition: rows still being cancelled right after this answer (0: none was left); the reports list shows it until it is 0 */
                                cancelling_count: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The channel's bulk sends with their counters, newest first
         * @description Paged (page from 1, page_size up to 500, default 20). Counters follow the status events as they arrive. Addition: `cost`, the billable messages by pricing category and market and their estimated cost at Meta's list price (the company's rate card, GET /api/v1/rate-card); an estimate, not an invoice.
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
                    /**
                     * @example {
                     *       "page": 1,
                     *       "page_size": 20,
                     *       "channel_id": "110000000000001"
                     *     }
                     */
                    "application/json": {
                        /** @default 1 */
                        page?: number;
                        /** @default 20 */
                        page_size?: number;
                        channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "items": [
                         *         {
                         *           "name": "summer_sale",
                         *           "send_wizard_id": "6740f1a2c3d4e5f60123ef01",
                         *           "status": "COMPLETED",
                         *           "from_number": "+1 555-010-0001",
                         *           "summary": 2,
                         *           "waiting": 0,
                         *           "queued": 0,
                         *           "processed_count": 2,
                         *           "awaiting_backend_count": 0,
                         *           "failed_count": 0,
                         *           "delivered_count": 2,
                         *           "sent_count": 2,
                         *           "seen_count": 1,
                         *           "created_at": 1795446245000,
                         *           "has_button": true,
                         *           "cancelled_count": 0,
                         *           "cancelling_count": 0,
                         *           "duplicate_count": 0,
                         *           "total_time": 60,
                         *           "paused_reason": null,
                         *           "message_template_id": "6740f1a2c3d4e5f601234567",
                         *           "channel_id": "110000000000001",
                         *           "scheduled_at": null,
                         *           "retry_of": null,
                         *           "send_name": "Summer sale – VIP customers",
                         *           "skipped_count": 0,
                         *           "cost": {
                         *             "currency": "USD",
                         *             "estimated_cost": 0,
                         *             "complete": false,
                         *             "billable_count": 2,
                         *             "unknown_price_count": 2,
                         *             "by_market": [
                         *               {
                         *                 "market": "TR",
                         *                 "category": "marketing",
                         *                 "billable_count": 2,
                         *                 "price": null,
                         *                 "cost": null
                         *               }
                         *             ],
                         *             "rate_card_effective_date": "2025-07-01",
                         *             "rate_card_source": "default",
                         *             "note": "Estimated at Meta's list price per delivered message; not an invoice."
                         *           },
                         *           "allowed_actions": []
                         *         }
                         *       ],
                         *       "pagination": {
                         *         "page": 1,
                         *         "page_size": 20,
                         *         "total": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            items: {
                                /** @description name fixed by the interface: the template's name (the bulk send's own is send_name) */
                                name: string;
                                /** @description name fixed by the interface: the bulk send's id */
                                send_wizard_id: string;
                                status: "PENDING" | "SCHEDULED" | "RUNNING" | "PAUSED" | "PAUSED_BY_USER" | "STOPPED" | "COMPLETED";
                                from_number: string;
                                /** @description name fixed by the interface: rows of the bulk send (duplicates left out) */
                                summary: number;
                                waiting: number;
                                queued: number;
                                processed_count: number;
                                awaiting_backend_count: number;
                                failed_count: number;
                                /** @description name fixed by the interface: rows the network accepted (WhatsApp's `sent`) */
                                delivered_count: number;
                                /** @description name fixed by the interface: rows on the customer's phone (WhatsApp's `delivered`) */
                                sent_count: number;
                                /** @description name fixed by the interface: rows read (WhatsApp's `read`) */
                                seen_count: number;
                                /** @description fixed by the interface: epoch milliseconds, the only time of the API that is not an ISO 8601 string */
                                created_at: number;
                                has_button: boolean;
                                cancelled_count: number;
                                /** @description addition: rows of a STOPPED bulk send still being cancelled (0 once the stop has cancelled them all) */
                                cancelling_count: number;
                                duplicate_count: number;
                                total_time: number;
                                paused_reason: string | null;
                                message_template_id: string;
                                channel_id: string;
                                /** @description addition: when a scheduled bulk send starts (null: started at once) */
                                scheduled_at: string | null;
                                /** @description addition: the bulk send whose failed rows this one retries */
                                retry_of: string | null;
                                /** @description addition: rows its start left out as invalid (skip_invalid_rows), listed in send-wizard/reports/skipped */
                                skipped_count: number;
                                /** @description addition: the bulk send's own name given at its start (a retry takes its source's); null when none */
                                send_name: string | null;
                                /**
                                 * @description addition: billable messages by pricing category and market (billable pricing from the status webhooks, delivered or read) and their cost at Meta's list price from the company's rate card; not an invoice
                                 * @example {
                                 *       "currency": "USD",
                                 *       "estimated_cost": 0.2472,
                                 *       "complete": true,
                                 *       "billable_count": 4,
                                 *       "unknown_price_count": 0,
                                 *       "by_market": [
                                 *         {
                                 *           "market": "AR",
                                 *           "category": "marketing",
                                 *           "billable_count": 4,
                                 *           "price": 0.0618,
                                 *           "cost": 0.2472
                                 *         }
                                 *       ],
                                 *       "rate_card_effective_date": "2025-07-01",
                                 *       "rate_card_source": "default",
                                 *       "note": "Estimated at Meta's list price per delivered message; not an invoice."
                                 *     }
                                 */
                                cost: {
                                    currency: string;
                                    /** @description sum of the lines with a known price */
                                    estimated_cost: number;
                                    /** @description false when some billable message has no known price (unknown_price_count) */
                                    complete: boolean;
                                    billable_count: number;
                                    unknown_price_count: number;
                                    by_market: {
                                        /** @description null: the recipient’s country is unknown */
                                        market: string | null;
                                        /**
                                         * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                         * @example marketing
                                         */
                                        category: string;
                                        billable_count: number;
                                        /** @description null: the card has no figure (unknown, not priced) */
                                        price: number | null;
                                        cost: number | null;
                                    }[];
                                    rate_card_effective_date: string;
                                    rate_card_source: "default" | "company";
                                    /** @description always: Meta's list price, not an invoice */
                                    note: string;
                                };
                                /** @description addition: what the user may do to the bulk send now: `pause` (RUNNING, PAUSED), `resume` (PAUSED_BY_USER), `stop` (not finished), `retry` (COMPLETED or STOPPED with failed rows). Decided by the server from its transition table; a client shows these actions, nothing else. */
                                allowed_actions: ("pause" | "resume" | "stop" | "retry")[];
                            }[];
                            pagination: {
                                page: number;
                                page_size: number;
                                /** @description items on all pages */
                                total: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/reports/skipped": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The rows a bulk start left out as invalid (skip_invalid_rows; beyond the interface)
         * @description In the order of the request, each with its row number as the client knows it, its phone as given and its problems; paged by data.page / data.page_size (up to 500); pagination.total is the list item's skipped_count. Another company's id is 404 like a missing one.
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
                    /**
                     * @example {
                     *       "id": "6650f0c2a1b2c3d4e5f60718",
                     *       "data": {
                     *         "page": 1,
                     *         "page_size": 50
                     *       }
                     *     }
                     */
                    "application/json": {
                        data?: {
                            /** @default 1 */
                            page?: number;
                            /** @default 20 */
                            page_size?: number;
                        };
                        id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "skipped_rows": [
                         *           {
                         *             "row": 3,
                         *             "row_id": 3,
                         *             "phone_number": "90555",
                         *             "field": "rows[2].phone_number",
                         *             "message": "row 3: a phone number has 8 to 15 digits with its country code"
                         *           }
                         *         ]
                         *       },
                         *       "pagination": {
                         *         "page": 1,
                         *         "page_size": 20,
                         *         "total": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                skipped_rows: {
                                    /** @description the row's number as the client knows it: its place in start's rows (from 1), startv2's row-number cell, a file's sheet row */
                                    row: number;
                                    /** @description start's row id when it gave one */
                                    row_id: number | null;
                                    /** @description the phone as given (up to 64 characters) */
                                    phone_number: string | null;
                                    /** @description the first problem's field, as a refused start would name it */
                                    field: string | null;
                                    /** @description its problems */
                                    message: string;
                                }[];
                            };
                            pagination: {
                                page: number;
                                page_size: number;
                                /** @description items on all pages */
                                total: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/reports/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One bulk send's rows with their status, times and errors, in row order
         * @description Paged by data.page / data.page_size (up to 500). Time and error fields appear once set; row is the 1-based row number, row_id the client's id. Addition: `status` lists only rows in that message status (`pagination.total` counts them); `data.after_row` pages by keyset (the rows after that row number), as fast deep in a 1,000,000-row bulk send as on its first page; `data.send_name` is the bulk send's own name, `data.status` its status and `data.allowed_actions` what the user may do to it now.
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
                    /**
                     * @example {
                     *       "id": "6650f0c2a1b2c3d4e5f60718",
                     *       "data": {
                     *         "page": 1,
                     *         "page_size": 50
                     *       },
                     *       "status": "BACKEND_FAILED"
                     *     }
                     */
                    "application/json": {
                        data?: {
                            /** @default 1 */
                            page?: number;
                            /** @default 20 */
                            page_size?: number;
                            /** @description addition: keyset paging, the rows after this row number (the last `row` of the previous page); `page` is then only echoed */
                            after_row?: number;
                        };
                        id: string;
                        /** @description addition: only rows in this message status; pagination.total is then the count of those rows */
                        status?: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "report_details": [
                         *           {
                         *             "row": 1,
                         *             "row_id": 1,
                         *             "message_id": "6740f1a2c3d4e5f60123abcd",
                         *             "phone_number": "905551234567",
                         *             "user_id": "TR.13491208655302741918",
                         *             "parent_user_id": null,
                         *             "username": null,
                         *             "full_name": "Ayse Yilmaz",
                         *             "status": "BACKEND_SEEN",
                         *             "backend_sended_time": "2026-11-23T15:04:05.500Z",
                         *             "sended_time": "2026-11-23T15:04:06.000Z",
                         *             "delivered_time": "2026-11-23T15:04:07.000Z",
                         *             "seen_time": "2026-11-23T15:05:00.000Z",
                         *             "market": "TR",
                         *             "pricing": {
                         *               "category": "marketing",
                         *               "type": "regular",
                         *               "billable": true,
                         *               "pricing_model": "PMP"
                         *             },
                         *             "webhook_response": {
                         *               "id": "wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=",
                         *               "status": "read",
                         *               "timestamp": "1795446300",
                         *               "recipient_id": "905551234567"
                         *             }
                         *           }
                         *         ],
                         *         "send_name": "Spring sale – VIP customers",
                         *         "cost": {
                         *           "currency": "USD",
                         *           "estimated_cost": 0,
                         *           "complete": false,
                         *           "billable_count": 2,
                         *           "unknown_price_count": 2,
                         *           "by_market": [
                         *             {
                         *               "market": "TR",
                         *               "category": "marketing",
                         *               "billable_count": 2,
                         *               "price": null,
                         *               "cost": null
                         *             }
                         *           ],
                         *           "rate_card_effective_date": "2025-07-01",
                         *           "rate_card_source": "default",
                         *           "note": "Estimated at Meta's list price per delivered message; not an invoice."
                         *         },
                         *         "status": "COMPLETED",
                         *         "allowed_actions": []
                         *       },
                         *       "pagination": {
                         *         "page": 1,
                         *         "page_size": 20,
                         *         "total": 2
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                report_details: {
                                    row: number;
                                    row_id: number | null;
                                    message_id: string;
                                    /** @description the customer number; null for a row sent to a BSUID whose phone number is not known */
                                    phone_number: string | null;
                                    /** @description addition: the recipient's business-scoped user id (BSUID), given with the send or reported by the network; null when unknown */
                                    user_id: string | null;
                                    /** @description addition: the parent BSUID the network reported (linked business portfolios); null when none */
                                    parent_user_id: string | null;
                                    /** @description addition: the recipient's WhatsApp username, when the network showed one */
                                    username: string | null;
                                    full_name: string | null;
                                    status: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                                    /** Format: date-time */
                                    backend_sended_time?: string;
                                    /** Format: date-time */
                                    sended_time?: string;
                                    /** Format: date-time */
                                    delivered_time?: string;
                                    /** Format: date-time */
                                    seen_time?: string;
                                    /** Format: date-time */
                                    failed_time?: string;
                                    error_message?: string;
                                    error_message_detail?: string;
                                    /** @description addition: the recipient's country (ISO 3166-1 alpha-2), null when unknown */
                                    market: string | null;
                                    /** @description the network's pricing of the message (status webhooks); null until a status carried it */
                                    pricing: {
                                        /**
                                         * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                         * @example marketing
                                         */
                                        category: string;
                                        /** @description regular (billed), free_customer_service, free_entry_point */
                                        type: string | null;
                                        billable: boolean;
                                        /** @description PMP (per message) */
                                        pricing_model: string | null;
                                    } | null;
                                    webhook_response?: components["schemas"]["WebhookResponse"];
                                }[];
                                /** @description addition: the bulk send's own name; null when none */
                                send_name: string | null;
                                /**
                                 * @description addition: the bulk send's billable messages by category and market and their cost at Meta's list price (not an invoice)
                                 * @example {
                                 *       "currency": "USD",
                                 *       "estimated_cost": 0.2472,
                                 *       "complete": true,
                                 *       "billable_count": 4,
                                 *       "unknown_price_count": 0,
                                 *       "by_market": [
                                 *         {
                                 *           "market": "AR",
                                 *           "category": "marketing",
                                 *           "billable_count": 4,
                                 *           "price": 0.0618,
                                 *           "cost": 0.2472
                                 *         }
                                 *       ],
                                 *       "rate_card_effective_date": "2025-07-01",
                                 *       "rate_card_source": "default",
                                 *       "note": "Estimated at Meta's list price per delivered message; not an invoice."
                                 *     }
                                 */
                                cost: {
                                    currency: string;
                                    /** @description sum of the lines with a known price */
                                    estimated_cost: number;
                                    /** @description false when some billable message has no known price (unknown_price_count) */
                                    complete: boolean;
                                    billable_count: number;
                                    unknown_price_count: number;
                                    by_market: {
                                        /** @description null: the recipient’s country is unknown */
                                        market: string | null;
                                        /**
                                         * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                         * @example marketing
                                         */
                                        category: string;
                                        billable_count: number;
                                        /** @description null: the card has no figure (unknown, not priced) */
                                        price: number | null;
                                        cost: number | null;
                                    }[];
                                    rate_card_effective_date: string;
                                    rate_card_source: "default" | "company";
                                    /** @description always: Meta's list price, not an invoice */
                                    note: string;
                                };
                                /** @description addition: the bulk send's status */
                                status: "PENDING" | "SCHEDULED" | "RUNNING" | "PAUSED" | "PAUSED_BY_USER" | "STOPPED" | "COMPLETED";
                                /** @description addition: what the user may do to the bulk send now: `pause` (RUNNING, PAUSED), `resume` (PAUSED_BY_USER), `stop` (not finished), `retry` (COMPLETED or STOPPED with failed rows). Decided by the server from its transition table; a client shows these actions, nothing else. */
                                allowed_actions: ("pause" | "resume" | "stop" | "retry")[];
                            };
                            pagination: {
                                page: number;
                                page_size: number;
                                /** @description items on all pages */
                                total: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/start-file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a bulk send from a CSV or XLSX file (multipart; addition)
         * @description multipart/form-data: a `file` part (CSV in UTF-8 with a header row, comma, semicolon or tab separated; or XLSX, first worksheet; up to 256 MB and 1,000,000 rows) and the fields `message_template_id`, `channel_id`, `total_time`, optional `mapping` (a JSON object: column header -> target; targets `phone_number`, `full_name`, `id`, and the startv2 columns such as `BODY.1`, `HEADER.1`, `BUTTONS.0`, `CAROUSEL.0.BODY.1` or start field names `url_button_param`, `url_button_param2`, `text_header_param`, `copy_code_param`; without it, headers that already name a target are used, a header named like a template value the template does not take (`BODY.2`, `url_button_param`) is refused as MAPPING_INVALID on `mapping.<header>`, other headers are ignored) and optional `dry_run` (true/false), `scheduled_at` (addition: ISO 8601 with an offset; see the JSON starts), `send_name` (the bulk send's own name, as on the JSON starts) `message_send_ttl_seconds` and `skip_invalid_rows` (true/false; as on the JSON starts). Fields and file may come in any order. Rows are checked exactly as startv2 rows; errors name `rows[<sheet row>].<column header>` (the header is row 1). Nothing is stored when any row is bad (unless skip_invalid_rows). Codes: FILE_TYPE_UNSUPPORTED (415), FILE_INVALID, MAPPING_INVALID (400), PAYLOAD_TOO_LARGE (413).
         */
        post: {
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
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                send_wizard_id: string;
                                /** @description unique rows stored */
                                summary: number;
                                /** @description rows left out because their recipient (phone number or BSUID, or one the network linked to it) came earlier */
                                duplicate_count: number;
                                /** @description addition, with skip_invalid_rows only: rows left out as invalid, listed in send-wizard/reports/skipped */
                                skipped_count?: number;
                            };
                        } | {
                            /** @enum {boolean} */
                            success: true;
                            data: {
                                /** @enum {boolean} */
                                dry_run: true;
                                /** @description unique rows a start would store (duplicate recipients removed): the start's and the list item's summary */
                                summary: number;
                                /** @description rows whose recipient an earlier row already has: the start's and the list item's duplicate_count */
                                duplicate_count: number;
                                /** @description unique recipients the channel has not reached in the rolling 24 h (each takes a tier slot) */
                                tier_needed_24h: number;
                                /** @description new recipients the tier allows now (the channel's tier_left_24h); null when the tier has no cap */
                                tier_left_24h: number | null;
                                /**
                                 * @description what the rows would cost at Meta's list price if every one were delivered (the company's rate card; the template's pricing category, marketing_lite through the Marketing Messages API); not an invoice
                                 * @example {
                                 *       "currency": "USD",
                                 *       "estimated_cost": 0.2472,
                                 *       "complete": true,
                                 *       "billable_count": 4,
                                 *       "unknown_price_count": 0,
                                 *       "by_market": [
                                 *         {
                                 *           "market": "AR",
                                 *           "category": "marketing",
                                 *           "billable_count": 4,
                                 *           "price": 0.0618,
                                 *           "cost": 0.2472
                                 *         }
                                 *       ],
                                 *       "rate_card_effective_date": "2025-07-01",
                                 *       "rate_card_source": "default",
                                 *       "note": "Estimated at Meta's list price per delivered message; not an invoice."
                                 *     }
                                 */
                                estimate: {
                                    currency: string;
                                    /** @description sum of the lines with a known price */
                                    estimated_cost: number;
                                    /** @description false when some billable message has no known price (unknown_price_count) */
                                    complete: boolean;
                                    billable_count: number;
                                    unknown_price_count: number;
                                    by_market: {
                                        /** @description null: the recipient’s country is unknown */
                                        market: string | null;
                                        /**
                                         * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                         * @example marketing
                                         */
                                        category: string;
                                        billable_count: number;
                                        /** @description null: the card has no figure (unknown, not priced) */
                                        price: number | null;
                                        cost: number | null;
                                    }[];
                                    rate_card_effective_date: string;
                                    rate_card_source: "default" | "company";
                                    /** @description always: Meta's list price, not an invoice */
                                    note: string;
                                };
                                /** @description with skip_invalid_rows only: rows a start would leave out as invalid */
                                skipped_count?: number;
                                /** @description with skip_invalid_rows only: the first 100 of them */
                                skipped_rows?: {
                                    /** @description the row's number as the client knows it: its place in start's rows (from 1), startv2's row-number cell, a file's sheet row */
                                    row: number;
                                    /** @description start's row id when it gave one */
                                    row_id: number | null;
                                    /** @description the phone as given (up to 64 characters) */
                                    phone_number: string | null;
                                    /** @description the first problem's field, as a refused start would name it */
                                    field: string | null;
                                    /** @description its problems */
                                    message: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/reports/detail/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a bulk send's report detail as CSV or XLSX (streamed; addition)
         * @description Every row of the bulk send in row order (optionally only one message status), streamed in keyset batches: columns row, row_id, phone_number, full_name, status, backend_sended_time, sended_time, delivered_time, seen_time, failed_time (ISO 8601 UTC), error_message, error_message_detail, message_id, send_name (the bulk send's own name, on every row), then what the row cost: market (the recipient's country), pricing_category and pricing_type (the network's pricing), billed (billable and delivered or read) and list_price (the rate card's figure for a billed row; empty when unknown); list_price summed is the estimated cost at Meta's list price, not an invoice. Empty cells for unset fields. Sent as an attachment (report-<id>[-<status>].csv|xlsx). Another company's id is 404 like a missing one.
         */
        get: {
            parameters: {
                query: {
                    /**
                     * @description the send_wizard_id
                     * @example 6650f0c2a1b2c3d4e5f60718
                     */
                    id: string;
                    /**
                     * @description csv (UTF-8, comma, header row) or xlsx
                     * @example xlsx
                     */
                    format?: "csv" | "xlsx";
                    /**
                     * @description only rows in this message status
                     * @example BACKEND_FAILED
                     */
                    status?: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description the file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": string;
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": components["schemas"]["ErrorEnvelope"];
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/csv": components["schemas"]["ErrorEnvelope"];
                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a bulk send (addition): no new row is handed to the network until resume
         * @description RUNNING or PAUSED (by the service) → PAUSED_BY_USER. Every row not yet handed to the network goes back to waiting (NONE, counted in `waiting`); rows already with the network keep receiving status events. The service never resumes it by itself. A second pause answers 200 with the same status; a SCHEDULED bulk send is 409 BULK_SEND_NOT_STARTED, a STOPPED or COMPLETED one 409 BULK_SEND_FINISHED.
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
                    /**
                     * @example {
                     *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                     *       "channel_id": "110000000000001"
                     *     }
                     */
                    "application/json": {
                        send_wizard_id: string;
                        channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "send_wizard_id": "6752f0a1c3d4e5f601234567",
                         *         "status": "PAUSED_BY_USER",
                         *         "paused_reason": null,
                         *         "parked_count": 812,
                         *         "window_seconds": 0
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /**
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "PAUSED_BY_USER",
                             *       "paused_reason": null,
                             *       "parked_count": 812,
                             *       "window_seconds": 0
                             *     }
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "RUNNING",
                             *       "paused_reason": null,
                             *       "parked_count": 0,
                             *       "window_seconds": 1450
                             *     }
                             */
                            data: {
                                send_wizard_id: string;
                                status: "PENDING" | "SCHEDULED" | "RUNNING" | "PAUSED" | "PAUSED_BY_USER" | "STOPPED" | "COMPLETED";
                                /** @description the service's own pause reason (channel FLAGGED/RED, TIER_LIMIT, token refused): kept through a user pause and restored by resume */
                                paused_reason: string | null;
                                /** @description rows this pause sent back to waiting (NONE); 0 for resume */
                                parked_count: number;
                                /** @description resume: seconds of the total_time window left, over which the waiting rows are spread from now (0: as fast as the channel allows); 0 for pause */
                                window_seconds: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a bulk send the user paused (addition)
         * @description PAUSED_BY_USER → RUNNING, or PAUSED when the service's own reason (channel FLAGGED/RED, tier quota, refused token) was in force at the pause: the service lifts it when its rows can go again. The rest of the total_time window, frozen at the pause, restarts now and the waiting rows are spread over it (none left: as fast as the channel's throughput allows). Resuming a RUNNING or service-PAUSED bulk send changes nothing (200); SCHEDULED is 409 BULK_SEND_NOT_STARTED, STOPPED or COMPLETED 409 BULK_SEND_FINISHED.
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
                    /**
                     * @example {
                     *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                     *       "channel_id": "110000000000001"
                     *     }
                     */
                    "application/json": {
                        send_wizard_id: string;
                        channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "send_wizard_id": "6752f0a1c3d4e5f601234567",
                         *         "status": "PAUSED_BY_USER",
                         *         "paused_reason": null,
                         *         "parked_count": 812,
                         *         "window_seconds": 0
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /**
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "PAUSED_BY_USER",
                             *       "paused_reason": null,
                             *       "parked_count": 812,
                             *       "window_seconds": 0
                             *     }
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "RUNNING",
                             *       "paused_reason": null,
                             *       "parked_count": 0,
                             *       "window_seconds": 1450
                             *     }
                             */
                            data: {
                                send_wizard_id: string;
                                status: "PENDING" | "SCHEDULED" | "RUNNING" | "PAUSED" | "PAUSED_BY_USER" | "STOPPED" | "COMPLETED";
                                /** @description the service's own pause reason (channel FLAGGED/RED, TIER_LIMIT, token refused): kept through a user pause and restored by resume */
                                paused_reason: string | null;
                                /** @description rows this pause sent back to waiting (NONE); 0 for resume */
                                parked_count: number;
                                /** @description resume: seconds of the total_time window left, over which the waiting rows are spread from now (0: as fast as the channel allows); 0 for pause */
                                window_seconds: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/agent-app/message-template/send-wizard/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new bulk send from the failed rows of a finished one (addition)
         * @description Takes the failed rows (OPT_IN_FAILED, OPT_IN_FAILED_INVALID_NUMBER, SENT_TO_BACKEND_FAILED, BACKEND_FAILED) of a COMPLETED or STOPPED bulk send, optionally only those whose network error code is in `error_codes`, into a new bulk send of the same template and channel (rows renumbered 1..n in their order, same parameters), starting now or at `scheduled_at`, spread over `total_time` (default 0). Never taken: a row the network accepted before it failed by timeout (SENT_TO_BACKEND_FAILED after SENT_TO_BACKEND) or whose outcome is unknown (OUTCOME_UNKNOWN), and a recipient with a later message of the same template in the company that neither failed nor was cancelled. An unfinished bulk send is 409 BULK_SEND_NOT_FINISHED; nothing to take is 409 NO_ROWS_TO_RETRY.
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
                    /**
                     * @example {
                     *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                     *       "channel_id": "110000000000001",
                     *       "error_codes": [
                     *         131049
                     *       ],
                     *       "scheduled_at": "2026-11-25T09:00:00Z",
                     *       "total_time": 3600
                     *     }
                     */
                    "application/json": {
                        send_wizard_id: string;
                        channel_id: string;
                        /** @description only failed rows whose network error code (as error_message_detail starts, e.g. 131049) is one of these */
                        error_codes?: number[];
                        /**
                         * Format: date-time
                         * @description Addition: start at this time instead of now (ISO 8601 with an offset, later than now, at most 90 days ahead). Until then the bulk send is SCHEDULED and its rows NONE; total_time spreads from the actual start.
                         * @example 2026-11-24T09:00:00+03:00
                         */
                        scheduled_at?: string;
                        /** @description seconds to spread the new bulk send over (default 0: as fast as the channel allows) */
                        total_time?: number;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "data": {
                         *         "send_wizard_id": "6752f3b0c3d4e5f601234999",
                         *         "retry_of": "6752f0a1c3d4e5f601234567",
                         *         "status": "SCHEDULED",
                         *         "summary": 37,
                         *         "failed_count": 52,
                         *         "filtered_count": 12,
                         *         "excluded_count": 3,
                         *         "scheduled_at": "2026-11-25T09:00:00.000Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /**
                             * @example {
                             *       "send_wizard_id": "6752f3b0c3d4e5f601234999",
                             *       "retry_of": "6752f0a1c3d4e5f601234567",
                             *       "status": "SCHEDULED",
                             *       "summary": 37,
                             *       "failed_count": 52,
                             *       "filtered_count": 12,
                             *       "excluded_count": 3,
                             *       "scheduled_at": "2026-11-25T09:00:00.000Z"
                             *     }
                             */
                            data: {
                                /** @description the NEW bulk send */
                                send_wizard_id: string;
                                /** @description the bulk send whose failed rows it took */
                                retry_of: string;
                                status: "RUNNING" | "SCHEDULED";
                                /** @description rows taken into the new bulk send */
                                summary: number;
                                /** @description failed rows of the source */
                                failed_count: number;
                                /** @description failed rows left out by error_codes */
                                filtered_count: number;
                                /** @description failed rows left out because the recipient may have the message (accepted by the network, outcome unknown, or a later message of the template that did not fail) */
                                excluded_count: number;
                                scheduled_at: string | null;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/message-templates/waba-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Phone status of a channel (quality in quality_rating)
         * @description The channel's status, quality and messaging tier, refreshed from the network when older than 30 s. A channel of another company answers 404 CHANNEL_NOT_FOUND.
         */
        get: {
            parameters: {
                query: {
                    /**
                     * @description the channel (phone number id)
                     * @example 110000000000001
                     */
                    channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "status": "CONNECTED",
                         *         "id": "110000000000001",
                         *         "verified_name": "Demo Company",
                         *         "display_phone_number": "+1 555-010-0001",
                         *         "messaging_limit_tier": "TIER_250",
                         *         "quality_rating": "GREEN"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                /** @description Status of the phone number (CONNECTED, FLAGGED, RESTRICTED, ...) */
                                status: string;
                                /** @description Phone number id = channel_id */
                                id: string;
                                verified_name: string;
                                display_phone_number: string;
                                /** @description The network's messaging limit (TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED; older numbers TIER_50, TIER_1K); UNKNOWN when the network names none */
                                messaging_limit_tier: string;
                                quality_rating: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's channels with their status, refreshed from the network when stale (addition)
         * @description Every channel of the company with status, quality, tier, the throughput it sends at, a token problem (auth_error) and status_webhooks_stale_since when status webhooks stopped arriving.
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "items": [
                         *         {
                         *           "status": "CONNECTED",
                         *           "id": "110000000000001",
                         *           "verified_name": "Demo Company",
                         *           "display_phone_number": "+1 555-010-0001",
                         *           "messaging_limit_tier": "TIER_250",
                         *           "quality_rating": "GREEN",
                         *           "whatsapp_account_id": "100000000000001",
                         *           "throughput_mps": 80,
                         *           "throughput_level": "STANDARD",
                         *           "throughput_override_mps": null,
                         *           "auth_error": null,
                         *           "refreshed_at": "2026-11-23T15:04:05.000Z",
                         *           "status_webhooks_stale_since": null,
                         *           "tier_limit": 250,
                         *           "tier_used_24h": 12,
                         *           "tier_left_24h": 238,
                         *           "tier_window_frees_at": "2026-11-24T09:12:00.000Z",
                         *           "blocked_reason": null,
                         *           "marketing_messages": {
                         *             "enabled": false,
                         *             "disabled_reason": null,
                         *             "disabled_at": null
                         *           }
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            items: {
                                /** @description Status of the phone number (CONNECTED, FLAGGED, RESTRICTED, ...) */
                                status: string;
                                /** @description Phone number id = channel_id */
                                id: string;
                                verified_name: string;
                                display_phone_number: string;
                                /** @description The network's messaging limit (TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED; older numbers TIER_50, TIER_1K); UNKNOWN when the network names none */
                                messaging_limit_tier: string;
                                quality_rating: string;
                                whatsapp_account_id: string;
                                /** @description Messages per second the channel sends at: the operator override, else the network level */
                                throughput_mps: number;
                                /** @description The network's throughput.level (STANDARD = 80, HIGH = 1000) */
                                throughput_level: string | null;
                                /** @description Set with tms channel add|update --throughput; null = follow the network */
                                throughput_override_mps: number | null;
                                /** @description Why the network refused the channel (expired token, permission, locked account) until the back-off passes or the token is rotated */
                                auth_error: string | null;
                                refreshed_at: string | null;
                                /** @description addition: set when messages have awaited a status for STATUS_WEBHOOK_ALERT_SECONDS and no status webhook arrived for the channel since this time (check the webhook subscription); null otherwise */
                                status_webhooks_stale_since: string | null;
                                /** @description addition: unique recipients the tier allows in a rolling 24 h (an unknown tier counts as 250); null = no cap */
                                tier_limit: number | null;
                                /** @description addition: unique recipients the channel reached (or holds a slot for) in the rolling 24 h */
                                tier_used_24h: number;
                                /** @description addition: new recipients the tier allows now (tier_limit - tier_used_24h, at least 0); null = no cap */
                                tier_left_24h: number | null;
                                /** @description addition: when the earliest recipient of the rolling window leaves it and frees a slot; null when the window is empty */
                                tier_window_frees_at: string | null;
                                /** @description addition: why the service does not send on the channel now (status FLAGGED/RESTRICTED/BANNED/DELETED, quality RED, or a channel-level network refusal such as an expired token until its back-off passes); null when it may send. A full tier window is not a block: see tier_left_24h */
                                blocked_reason: string | null;
                                /**
                                 * @example {
                                 *       "enabled": false,
                                 *       "disabled_reason": null,
                                 *       "disabled_at": null
                                 *     }
                                 */
                                marketing_messages: {
                                    /** @description MARKETING templates go through POST /{phone-number-id}/marketing_messages; other categories always use /messages */
                                    enabled: boolean;
                                    /** @description why the service switched it off (the network refused the account: not onboarded, 134102); null when on or switched off by the user */
                                    disabled_reason: string | null;
                                    /** @description when the service switched it off */
                                    disabled_at: string | null;
                                };
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/channels/{channel_id}/marketing-messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Send the channel's MARKETING templates through the Marketing Messages API, or not (added beyond the interface)
         * @description On: MARKETING templates go through POST /{phone-number-id}/marketing_messages (Meta's delivery optimisation; a bulk start may add message_send_ttl_seconds); UTILITY and AUTHENTICATION templates always use /messages. If the network refuses the account (134102, not onboarded), the refused row goes by /messages (no message was created; never sent twice) and the service switches the setting off with disabled_reason. Setting it again clears that reason. Another company's channel is 404 CHANNEL_NOT_FOUND.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description the channel (phone number id)
                     * @example 110000000000001
                     */
                    channel_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "enabled": true
                     *     }
                     */
                    "application/json": {
                        enabled: boolean;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "channel_id": "110000000000001",
                         *         "marketing_messages": {
                         *           "enabled": true,
                         *           "disabled_reason": null,
                         *           "disabled_at": null
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                channel_id: string;
                                /**
                                 * @example {
                                 *       "enabled": false,
                                 *       "disabled_reason": null,
                                 *       "disabled_at": null
                                 *     }
                                 */
                                marketing_messages: {
                                    /** @description MARKETING templates go through POST /{phone-number-id}/marketing_messages; other categories always use /messages */
                                    enabled: boolean;
                                    /** @description why the service switched it off (the network refused the account: not onboarded, 134102); null when on or switched off by the user */
                                    disabled_reason: string | null;
                                    /** @description when the service switched it off */
                                    disabled_at: string | null;
                                };
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/message-templates/check-name": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a template name on a channel (needed within the hour before create)
         * @description Answers 200 when the name is valid and free on the channel's WABA (not used, not deleted in the last 30 days); 409 TEMPLATE_NAME_TAKEN or 400 TEMPLATE_NAME_INVALID otherwise. A create of that name on that channel needs this within the hour.
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
                    /**
                     * @example {
                     *       "channel_id": "110000000000001",
                     *       "name": "summer_sale_b"
                     *     }
                     */
                    "application/json": {
                        /** @description the channel (phone number id) */
                        channel_id: string;
                        name: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": []
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/message-templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The templates of the channel's WABA
         * @description Every template of the WABA the channel belongs to, including those made in WhatsApp Manager (imported on the way), with review statuses refreshed from the network when stale.
         */
        get: {
            parameters: {
                query: {
                    /**
                     * @description the channel (phone number id)
                     * @example 110000000000001
                     */
                    channel_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "items": [
                         *         {
                         *           "id": "6740f1a2c3d4e5f601234567",
                         *           "name": "summer_sale",
                         *           "language": "en_US",
                         *           "category": "MARKETING",
                         *           "status": "APPROVED",
                         *           "components": [
                         *             {
                         *               "type": "HEADER",
                         *               "format": "TEXT",
                         *               "text": "Summer sale"
                         *             },
                         *             {
                         *               "type": "BODY",
                         *               "text": "Hi {{1}}, use {{2}} for 10% off.",
                         *               "example": {
                         *                 "body_text": [
                         *                   [
                         *                     "Ayse",
                         *                     "SAVE10"
                         *                   ]
                         *                 ]
                         *               }
                         *             },
                         *             {
                         *               "type": "FOOTER",
                         *               "text": "Reply STOP to opt out"
                         *             },
                         *             {
                         *               "type": "BUTTONS",
                         *               "buttons": [
                         *                 {
                         *                   "type": "URL",
                         *                   "text": "Shop",
                         *                   "url": "https://shop.example.com/{{1}}",
                         *                   "example": [
                         *                     "https://shop.example.com/summer"
                         *                   ]
                         *                 }
                         *               ]
                         *             }
                         *           ],
                         *           "rejected_reason": null,
                         *           "quality_score": "GREEN",
                         *           "channel_id": "110000000000001",
                         *           "created_at": "2026-11-23T15:04:05.000Z",
                         *           "updated_at": "2026-11-23T15:04:05.000Z"
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            items: {
                                id: string;
                                name: string;
                                language: string;
                                category: string;
                                /** @description APPROVED, PENDING, REJECTED, PAUSED, DISABLED, ... */
                                status: string;
                                components: components["schemas"]["TemplateComponent"][];
                                rejected_reason: string | null;
                                quality_score: string | null;
                                channel_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Create a template; the name must have been checked on the channel in the last hour
         * @description Like `POST /agent-app/message-template/template`; an IMAGE, VIDEO or DOCUMENT header takes file_handle from POST /api/v1/media (422 MEDIA_REQUIRED without). Without a check-name of the name on the channel in the last hour: 422 NAME_NOT_CHECKED. Optional Idempotency-Key header.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /**
                     * @description addition: 1–255 printable ASCII characters. A retry with the same key and body within 24 h gets the first answer (Idempotent-Replayed: true) and runs nothing; another body under the key is 409 IDEMPOTENCY_KEY_REUSED.
                     * @example order-86019-send
                     */
                    "Idempotency-Key"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "name": "summer_sale_b",
                     *       "category": "MARKETING",
                     *       "language": "en_US",
                     *       "components": [
                     *         {
                     *           "type": "HEADER",
                     *           "format": "TEXT",
                     *           "text": "Summer sale"
                     *         },
                     *         {
                     *           "type": "BODY",
                     *           "text": "Hi {{1}}, use {{2}} for 10% off.",
                     *           "example": {
                     *             "body_text": [
                     *               [
                     *                 "Ayse",
                     *                 "SAVE10"
                     *               ]
                     *             ]
                     *           }
                     *         },
                     *         {
                     *           "type": "FOOTER",
                     *           "text": "Reply STOP to opt out"
                     *         },
                     *         {
                     *           "type": "BUTTONS",
                     *           "buttons": [
                     *             {
                     *               "type": "URL",
                     *               "text": "Shop",
                     *               "url": "https://shop.example.com/{{1}}",
                     *               "example": [
                     *                 "https://shop.example.com/summer"
                     *               ]
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "allow_category_change": false,
                     *       "channel_id": "110000000000001"
                     *     }
                     */
                    "application/json": {
                        /** @description lower-case letters, digits and _, at most 512 */
                        name: string;
                        /** @description a value of the categories list (MARKETING) */
                        category: string;
                        /** @description a value of the languages list, e.g. en_US */
                        language: string;
                        components: components["schemas"]["TemplateComponentInput"][];
                        allow_category_change: boolean;
                        /** @description the channel (phone number id) */
                        channel_id: string;
                        /** @description from POST /api/v1/media */
                        file_handle?: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "id": "6740f1a2c3d4e5f601234567",
                         *         "status": "PENDING"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                id: string;
                                /** @description PENDING until the network reviews it */
                                status: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/message-templates/languages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The network's template languages
         * @description The language codes a create takes in language (value), with their names.
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "languages": [
                         *           {
                         *             "value": "en_US",
                         *             "title": "English (US)"
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                languages: {
                                    value: string;
                                    title: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/message-templates/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Categories supported for creation
         * @description The categories a create takes in category (MARKETING).
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "categories": [
                         *           {
                         *             "icon": "campaign",
                         *             "value": "MARKETING",
                         *             "title": "Marketing"
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                categories: {
                                    icon: string;
                                    value: string;
                                    title: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/message-templates/{message_template_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One template
         * @description A template of the channel's WABA by id; another company's id answers 404 NOT_FOUND like a missing one.
         */
        get: {
            parameters: {
                query: {
                    /**
                     * @description the channel (phone number id)
                     * @example 110000000000001
                     */
                    channel_id: string;
                };
                header?: never;
                path: {
                    /** @example 6740f1a2c3d4e5f601234567 */
                    message_template_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "message_template": {
                         *           "id": "6740f1a2c3d4e5f601234567",
                         *           "name": "summer_sale",
                         *           "language": "en_US",
                         *           "category": "MARKETING",
                         *           "status": "APPROVED",
                         *           "components": [
                         *             {
                         *               "type": "HEADER",
                         *               "format": "TEXT",
                         *               "text": "Summer sale"
                         *             },
                         *             {
                         *               "type": "BODY",
                         *               "text": "Hi {{1}}, use {{2}} for 10% off.",
                         *               "example": {
                         *                 "body_text": [
                         *                   [
                         *                     "Ayse",
                         *                     "SAVE10"
                         *                   ]
                         *                 ]
                         *               }
                         *             },
                         *             {
                         *               "type": "FOOTER",
                         *               "text": "Reply STOP to opt out"
                         *             },
                         *             {
                         *               "type": "BUTTONS",
                         *               "buttons": [
                         *                 {
                         *                   "type": "URL",
                         *                   "text": "Shop",
                         *                   "url": "https://shop.example.com/{{1}}",
                         *                   "example": [
                         *                     "https://shop.example.com/summer"
                         *                   ]
                         *                 }
                         *               ]
                         *             }
                         *           ],
                         *           "rejected_reason": null,
                         *           "quality_score": "GREEN",
                         *           "channel_id": "110000000000001",
                         *           "created_at": "2026-11-23T15:04:05.000Z",
                         *           "updated_at": "2026-11-23T15:04:05.000Z"
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                message_template: {
                                    id: string;
                                    name: string;
                                    language: string;
                                    category: string;
                                    /** @description APPROVED, PENDING, REJECTED, PAUSED, DISABLED, ... */
                                    status: string;
                                    components: components["schemas"]["TemplateComponent"][];
                                    rejected_reason: string | null;
                                    quality_score: string | null;
                                    channel_id: string;
                                    /** Format: date-time */
                                    created_at: string;
                                    /** Format: date-time */
                                    updated_at: string;
                                };
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Delete a template (at the network too; the name is blocked for 30 days)
         * @description Deletes the template at the network and here; its name cannot be used on the WABA for 30 days (the network's rule).
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @example 6740f1a2c3d4e5f601234567 */
                    message_template_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": []
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/media": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload a template header file (multipart: channel_id, file); returns file_handle
         * @description An addition. multipart/form-data with a channel_id field and one file part named file; the file is streamed to the network's resumable upload. The answer's file_handle goes into file_handle of POST /api/v1/message-templates, or example.header_handle of a create under /agent-app/message-template. Another content type is 415 UNSUPPORTED_MEDIA_TYPE; a type/content mismatch 400 and an over-size file 413, both on field file.
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
                    /**
                     * @example {
                     *       "channel_id": "110000000000001",
                     *       "file": "(the bytes of summer.png)"
                     *     }
                     */
                    "multipart/form-data": {
                        /**
                         * @description the channel (phone number id) whose app uploads the file
                         * @example 110000000000001
                         */
                        channel_id: string;
                        /**
                         * Format: binary
                         * @description the file: image/jpeg or image/png (≤ 5 MB), video/mp4 (≤ 16 MB), application/pdf (≤ 100 MB); its part's content type must match its content
                         */
                        file: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "file_handle": "4::aW1hZ2UvcG5n:ARbExampleHandle",
                         *         "file_name": "summer.png",
                         *         "file_type": "image/png",
                         *         "file_length": 48213
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                /** @description the upload handle (example.header_handle / file_handle) */
                                file_handle: string;
                                file_name: string;
                                /** @description the MIME type */
                                file_type: string;
                                /** @description bytes */
                                file_length: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A recipient's messages by phone number or BSUID, newest first (addition)
         * @description The company's messages to one recipient (single sends and bulk-send rows), newest first, as the same records as POST /api/v1/messages: by phone_number, or by user_id (a BSUID: the messages sent to it or whose recipient the network reported with it). Once the network has linked the phone number and the BSUID (shown them together), each lookup also returns the messages stored under the other one alone: by user_id, the messages to the linked number that carry no BSUID; by phone_number, the messages to a linked BSUID that carry no phone number. Pages with limit (1-100, default 20) and after (the `next` of the previous page); `next` is null on the last page. A recipient nobody sent to answers an empty list; a malformed one is 400 naming its field.
         */
        get: {
            parameters: {
                query?: {
                    /**
                     * @description the recipient: digits with the country code (a leading + or 00, spaces, dots, dashes are accepted); this or user_id
                     * @example 905551234567
                     */
                    phone_number?: string;
                    /**
                     * @description the recipient's BSUID (`CC.<id>` or a parent BSUID `CC.ENT.<id>`); this or phone_number
                     * @example US.13491208655302741918
                     */
                    user_id?: string;
                    /**
                     * @description messages per page, 1-100 (default 20)
                     * @example 20
                     */
                    limit?: string;
                    /**
                     * @description the _id of the last message of the previous page (its `next`)
                     * @example 6a1f0c2e9b3d4a5f6e7d8c9b
                     */
                    after?: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "items": [
                         *         {
                         *           "_id": "6740f1a2c3d4e5f60123abcd",
                         *           "status": "BACKEND_SENT",
                         *           "company_id": "64656d6f0000000000000001",
                         *           "phone_number": "905551234567",
                         *           "user_id": "TR.13491208655302741918",
                         *           "parent_user_id": null,
                         *           "username": null,
                         *           "from_number": "+1 555-010-0001",
                         *           "full_name": "Ayse Yilmaz",
                         *           "message_template_id": "6740f1a2c3d4e5f601234567",
                         *           "whatsapp_account_id": "100000000000001",
                         *           "created_at": "2026-11-23T15:04:05.000Z",
                         *           "updated_at": "2026-11-23T15:04:07.000Z",
                         *           "__v": 4,
                         *           "ext_id": "wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=",
                         *           "webhook_response": {
                         *             "id": "wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=",
                         *             "status": "delivered",
                         *             "timestamp": "1795446247",
                         *             "recipient_id": "905551234567"
                         *           },
                         *           "send_wizard_id": null,
                         *           "backend_sended_time": "2026-11-23T15:04:05.500Z",
                         *           "sended_time": "2026-11-23T15:04:06.000Z",
                         *           "delivered_time": "2026-11-23T15:04:07.000Z",
                         *           "seen_time": null,
                         *           "failed_time": null,
                         *           "error_message": null,
                         *           "error_message_detail": null,
                         *           "market": "TR",
                         *           "pricing": {
                         *             "category": "utility",
                         *             "type": "regular",
                         *             "billable": true,
                         *             "pricing_model": "PMP"
                         *           }
                         *         }
                         *       ],
                         *       "next": null
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            items: {
                                _id: string;
                                status: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                                company_id: string;
                                /** @description the customer number (E.164); null for a message sent to a BSUID whose phone number is not known */
                                phone_number: string | null;
                                /** @description addition: the recipient's business-scoped user id (BSUID), given with the send or reported by the network; null when unknown */
                                user_id: string | null;
                                /** @description addition: the parent BSUID the network reported (linked business portfolios); null when none */
                                parent_user_id: string | null;
                                /** @description addition: the recipient's WhatsApp username, when the network showed one */
                                username: string | null;
                                from_number: string;
                                full_name: string | null;
                                message_template_id: string;
                                whatsapp_account_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                __v: number;
                                ext_id: string | null;
                                webhook_response: components["schemas"]["WebhookResponse"];
                                send_wizard_id: string | null;
                                backend_sended_time: string | null;
                                sended_time: string | null;
                                delivered_time: string | null;
                                seen_time: string | null;
                                failed_time: string | null;
                                error_message: string | null;
                                error_message_detail: string | null;
                                /** @description addition: the recipient's country (ISO 3166-1 alpha-2), null when unknown */
                                market: string | null;
                                /** @description the network's pricing of the message (status webhooks); null until a status carried it */
                                pricing: {
                                    /**
                                     * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                     * @example marketing
                                     */
                                    category: string;
                                    /** @description regular (billed), free_customer_service, free_entry_point */
                                    type: string | null;
                                    billable: boolean;
                                    /** @description PMP (per message) */
                                    pricing_model: string | null;
                                } | null;
                            }[];
                            /** @description pass as `after` for the next page; null on the last */
                            next: string | null;
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Status records of the caller's messages by id (unknown and other companies' ids are absent)
         * @description Up to 1,000 ids (single-send message_id or report detail message_id); each found message once, with its status, time fields (null until set), error fields on failure and webhook_response, the status payload from the network.
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
                    /**
                     * @example {
                     *       "message_ids": [
                     *         "6740f1a2c3d4e5f60123abcd"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        message_ids: string[];
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "items": [
                         *         {
                         *           "_id": "6740f1a2c3d4e5f60123abcd",
                         *           "status": "BACKEND_SENT",
                         *           "company_id": "64656d6f0000000000000001",
                         *           "phone_number": "905551234567",
                         *           "user_id": "TR.13491208655302741918",
                         *           "parent_user_id": null,
                         *           "username": null,
                         *           "from_number": "+1 555-010-0001",
                         *           "full_name": "Ayse Yilmaz",
                         *           "message_template_id": "6740f1a2c3d4e5f601234567",
                         *           "whatsapp_account_id": "100000000000001",
                         *           "created_at": "2026-11-23T15:04:05.000Z",
                         *           "updated_at": "2026-11-23T15:04:07.000Z",
                         *           "__v": 4,
                         *           "ext_id": "wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=",
                         *           "webhook_response": {
                         *             "id": "wamid.HBgMOTA1NTUxMjM0NTY3FQIAERgSQUJDREVGMDEyMzQ1Njc4OQA=",
                         *             "status": "delivered",
                         *             "timestamp": "1795446247",
                         *             "recipient_id": "905551234567"
                         *           },
                         *           "send_wizard_id": null,
                         *           "backend_sended_time": "2026-11-23T15:04:05.500Z",
                         *           "sended_time": "2026-11-23T15:04:06.000Z",
                         *           "delivered_time": "2026-11-23T15:04:07.000Z",
                         *           "seen_time": null,
                         *           "failed_time": null,
                         *           "error_message": null,
                         *           "error_message_detail": null,
                         *           "market": "TR",
                         *           "pricing": {
                         *             "category": "utility",
                         *             "type": "regular",
                         *             "billable": true,
                         *             "pricing_model": "PMP"
                         *           }
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            items: {
                                _id: string;
                                status: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                                company_id: string;
                                /** @description the customer number (E.164); null for a message sent to a BSUID whose phone number is not known */
                                phone_number: string | null;
                                /** @description addition: the recipient's business-scoped user id (BSUID), given with the send or reported by the network; null when unknown */
                                user_id: string | null;
                                /** @description addition: the parent BSUID the network reported (linked business portfolios); null when none */
                                parent_user_id: string | null;
                                /** @description addition: the recipient's WhatsApp username, when the network showed one */
                                username: string | null;
                                from_number: string;
                                full_name: string | null;
                                message_template_id: string;
                                whatsapp_account_id: string;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                __v: number;
                                ext_id: string | null;
                                webhook_response: components["schemas"]["WebhookResponse"];
                                send_wizard_id: string | null;
                                backend_sended_time: string | null;
                                sended_time: string | null;
                                delivered_time: string | null;
                                seen_time: string | null;
                                failed_time: string | null;
                                error_message: string | null;
                                error_message_detail: string | null;
                                /** @description addition: the recipient's country (ISO 3166-1 alpha-2), null when unknown */
                                market: string | null;
                                /** @description the network's pricing of the message (status webhooks); null until a status carried it */
                                pricing: {
                                    /**
                                     * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                     * @example marketing
                                     */
                                    category: string;
                                    /** @description regular (billed), free_customer_service, free_entry_point */
                                    type: string | null;
                                    billable: boolean;
                                    /** @description PMP (per message) */
                                    pricing_model: string | null;
                                } | null;
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's company: id and name (addition)
         * @description Resolves the bearer token to its company. The web console calls it to check a token at sign-in and to show the company name. A token that is unknown or revoked gets 401 UNAUTHORIZED.
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "company_id": "64656d6f0000000000000001",
                         *         "name": "Demo company"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "company_id": "64656d6f0000000000000001",
                             *       "name": "Demo company"
                             *     }
                             */
                            data: {
                                /** @description Id of the company the bearer token belongs to */
                                company_id: string;
                                /** @description Company name (as given to tms company create) */
                                name: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/opt-outs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company's opt-out list (suppression list), newest first
         * @description An addition. Paged with page (from 1) and page_size (1-500, default 20); phone_number keeps the numbers that contain its digits. Numbers on the list are never sent to: a bulk-send row ends OPT_IN_FAILED with error_message "Recipient opted out" and an error_message_detail that starts RECIPIENT_OPTED_OUT; a single send answers 422 RECIPIENT_OPTED_OUT.
         */
        get: {
            parameters: {
                query?: {
                    /**
                     * @description Page number, from 1 (default 1)
                     * @example 1
                     */
                    page?: string;
                    /**
                     * @description Entries per page, 1-500 (default 20)
                     * @example 20
                     */
                    page_size?: string;
                    /**
                     * @description Keeps numbers that contain these digits (a leading + is ignored), e.g. 905551234567 or 4567
                     * @example 4567
                     */
                    phone_number?: string;
                    /**
                     * @description Keeps BSUIDs that contain this text (letters, digits and dots), e.g. US.1349 (with phone_number: entries matching either)
                     * @example US.1349
                     */
                    user_id?: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "0b5c7e0e-8a7f-4a3e-9d51-4c1f0f2b9a10",
                         *       "errors": [],
                         *       "items": [
                         *         {
                         *           "phone_number": "+905551234567",
                         *           "user_id": "TR.13491208655302741918",
                         *           "source": "inbound_keyword",
                         *           "applies_to": "all",
                         *           "keyword": "STOP",
                         *           "reason": null,
                         *           "channel_id": "110000000000001",
                         *           "created_at": "2026-11-23T16:05:12.345Z"
                         *         }
                         *       ],
                         *       "pagination": {
                         *         "page": 1,
                         *         "page_size": 20,
                         *         "total": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            items: {
                                /** @description The number in E.164 (+ and 8-15 digits); null for an entry by BSUID only */
                                phone_number: string | null;
                                /** @description The BSUID (business-scoped user id, e.g. US.13491208655302741918); null for an entry by number only */
                                user_id: string | null;
                                /** @description api (POST /api/v1/opt-outs or tms opt-out add), import (POST /api/v1/opt-outs/import), inbound_keyword (the customer replied an opt-out keyword), user_preferences (the customer stopped marketing messages in WhatsApp) */
                                source: "api" | "import" | "inbound_keyword" | "user_preferences";
                                /** @description all templates, or MARKETING templates only (user_preferences) */
                                applies_to: "all" | "marketing";
                                /** @description The keyword the reply matched (inbound_keyword only) */
                                keyword: string | null;
                                /** @description Free text given with an add or an import line */
                                reason: string | null;
                                /** @description The channel the opt-out reply came in on (inbound_keyword only) */
                                channel_id: string | null;
                                /**
                                 * Format: date-time
                                 * @description When the number was added (ISO 8601 UTC)
                                 */
                                created_at: string;
                            }[];
                            pagination: {
                                page: number;
                                page_size: number;
                                /** @description Entries matching the search */
                                total: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Add a number or a BSUID to the opt-out list
         * @description An addition. phone_number and/or user_id (a BSUID, e.g. US.13491208655302741918; at least one): the number is normalised to E.164 (a leading 00 or + and spaces, dots, dashes, parentheses are accepted), the BSUID kept as written, and the entry stored with source "api". A malformed one is 400 naming its field, nothing written. Adding a number or BSUID already on the list changes nothing and answers its first entry with created false. A number and a BSUID the network showed to be one person (a webhook carrying both) are refused together whichever is listed.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description phone_number and/or user_id (at least one) */
            requestBody: {
                content: {
                    "application/json": {
                        phone_number?: string | null;
                        user_id?: string | null;
                        /** @description Free text kept with the entry */
                        reason?: string | null;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "0b5c7e0e-8a7f-4a3e-9d51-4c1f0f2b9a10",
                         *       "errors": [],
                         *       "data": {
                         *         "opt_out": {
                         *           "phone_number": "+905551234567",
                         *           "user_id": "TR.13491208655302741918",
                         *           "source": "api",
                         *           "applies_to": "all",
                         *           "keyword": null,
                         *           "reason": "asked by phone",
                         *           "channel_id": null,
                         *           "created_at": "2026-11-23T16:05:12.345Z"
                         *         },
                         *         "created": true
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                /**
                                 * @example {
                                 *       "phone_number": "+905551234567",
                                 *       "user_id": "TR.13491208655302741918",
                                 *       "source": "inbound_keyword",
                                 *       "applies_to": "all",
                                 *       "keyword": "STOP",
                                 *       "reason": null,
                                 *       "channel_id": "110000000000001",
                                 *       "created_at": "2026-11-23T16:05:12.345Z"
                                 *     }
                                 */
                                opt_out: {
                                    /** @description The number in E.164 (+ and 8-15 digits); null for an entry by BSUID only */
                                    phone_number: string | null;
                                    /** @description The BSUID (business-scoped user id, e.g. US.13491208655302741918); null for an entry by number only */
                                    user_id: string | null;
                                    /** @description api (POST /api/v1/opt-outs or tms opt-out add), import (POST /api/v1/opt-outs/import), inbound_keyword (the customer replied an opt-out keyword), user_preferences (the customer stopped marketing messages in WhatsApp) */
                                    source: "api" | "import" | "inbound_keyword" | "user_preferences";
                                    /** @description all templates, or MARKETING templates only (user_preferences) */
                                    applies_to: "all" | "marketing";
                                    /** @description The keyword the reply matched (inbound_keyword only) */
                                    keyword: string | null;
                                    /** @description Free text given with an add or an import line */
                                    reason: string | null;
                                    /** @description The channel the opt-out reply came in on (inbound_keyword only) */
                                    channel_id: string | null;
                                    /**
                                     * Format: date-time
                                     * @description When the number was added (ISO 8601 UTC)
                                     */
                                    created_at: string;
                                };
                                /** @description false when the number or BSUID was already on the list (its first entry is kept and returned) */
                                created: boolean;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/opt-outs/keywords": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company's opt-out keywords
         * @description An addition. An inbound WhatsApp reply (text, quick-reply button or reply-button title) that equals one of these, ignoring case, leading and trailing spaces and repeated inner spaces, adds its sender to the list of the company owning the channel it came in on. Default: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT, OPT OUT.
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "0b5c7e0e-8a7f-4a3e-9d51-4c1f0f2b9a10",
                         *       "errors": [],
                         *       "data": {
                         *         "keywords": [
                         *           "STOP",
                         *           "STOPALL",
                         *           "UNSUBSCRIBE",
                         *           "CANCEL",
                         *           "END",
                         *           "QUIT",
                         *           "OPTOUT",
                         *           "OPT OUT"
                         *         ],
                         *         "is_default": true
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "keywords": [
                             *         "STOP",
                             *         "STOPALL",
                             *         "UNSUBSCRIBE",
                             *         "CANCEL",
                             *         "END",
                             *         "QUIT",
                             *         "OPTOUT",
                             *         "OPT OUT"
                             *       ],
                             *       "is_default": true
                             *     }
                             */
                            data: {
                                /** @description Upper case; a reply matches when, trimmed and with inner spaces collapsed, it equals one of them ignoring case */
                                keywords: string[];
                                /** @description true while the company has not set its own list */
                                is_default: boolean;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        /**
         * Replace the company's opt-out keywords
         * @description An addition. Keywords are stored trimmed, upper case, inner spaces collapsed; at most 50, each at most 64 characters; two that are equal that way are refused (400, field keywords[i]). An empty list turns keyword opt-outs off. Numbers already on the list stay.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "keywords": [
                     *         "STOP",
                     *         "UNSUBSCRIBE",
                     *         "IPTAL",
                     *         "DUR"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description The new list (replaces the old; [] turns keyword opt-outs off). At most 50, each at most 64 characters after trimming; no two equal ignoring case */
                        keywords: string[];
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "0b5c7e0e-8a7f-4a3e-9d51-4c1f0f2b9a10",
                         *       "errors": [],
                         *       "data": {
                         *         "keywords": [
                         *           "STOP",
                         *           "UNSUBSCRIBE",
                         *           "IPTAL",
                         *           "DUR"
                         *         ],
                         *         "is_default": false
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "keywords": [
                             *         "STOP",
                             *         "STOPALL",
                             *         "UNSUBSCRIBE",
                             *         "CANCEL",
                             *         "END",
                             *         "QUIT",
                             *         "OPTOUT",
                             *         "OPT OUT"
                             *       ],
                             *       "is_default": true
                             *     }
                             */
                            data: {
                                /** @description Upper case; a reply matches when, trimmed and with inner spaces collapsed, it equals one of them ignoring case */
                                keywords: string[];
                                /** @description true while the company has not set its own list */
                                is_default: boolean;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/opt-outs/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import numbers to the opt-out list from a CSV file
         * @description An addition. The CSV (UTF-8, at most 16 MB and 100,000 lines) comes as a text/csv body or as the "file" part of multipart/form-data. Its first line is a header naming a phone_number and/or a user_id (BSUID) column and optionally a reason column (other columns are ignored); comma, semicolon or tab separated, as the header shows. Lines with a bad number, BSUID or reason are reported with their line number (1 = the header) and skipped; every good line is stored with source "import" (numbers already listed keep their entry). A file that is not valid CSV (an unclosed quote, a line over 4 KB) or lacks the header is refused as a whole (400): nothing is written.
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
                    /**
                     * @example phone_number,reason
                     *     905551234567,asked by phone
                     *     +44 7700 900123,
                     */
                    "text/csv": string;
                    "multipart/form-data": {
                        /**
                         * Format: binary
                         * @description The CSV file
                         */
                        file: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "0b5c7e0e-8a7f-4a3e-9d51-4c1f0f2b9a10",
                         *       "errors": [],
                         *       "data": {
                         *         "lines": 3,
                         *         "added": 2,
                         *         "already_listed": 0,
                         *         "invalid": 1,
                         *         "errors": [
                         *           {
                         *             "line": 3,
                         *             "message": "phone_number \"12ab\": a phone number is digits with the country code, optionally with a leading +"
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "lines": 3,
                             *       "added": 2,
                             *       "already_listed": 0,
                             *       "invalid": 1,
                             *       "errors": [
                             *         {
                             *           "line": 3,
                             *           "message": "phone_number \"12ab\": a phone number is digits with the country code, optionally with a leading +"
                             *         }
                             *       ]
                             *     }
                             */
                            data: {
                                /** @description Data lines read (header and empty lines not counted) */
                                lines: number;
                                /** @description Entries newly added */
                                added: number;
                                /** @description Lines whose number or BSUID was already on the list or repeated an earlier line */
                                already_listed: number;
                                /** @description Lines refused (bad or empty number or BSUID, reason too long); the others were stored */
                                invalid: number;
                                /** @description The first 100 refused lines */
                                errors: {
                                    /** @description Line in the file (1 = the header) */
                                    line: number;
                                    message: string;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/opt-outs/{phone_number}": {
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
         * Remove a number or a BSUID from the opt-out list
         * @description An addition. A phone number (with or without its leading +, URL-encoded as %2B) or a BSUID (starts with its country code, e.g. US.13491208655302741918). The entries of that number or BSUID and of the identifiers the network linked to it are removed. 404 NOT_FOUND when the company has none. Sends queued after this reach the recipient again.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description The number, digits with country code (a leading + URL-encoded as %2B, or left out), or a BSUID (US.13491208655302741918)
                     * @example 905551234567
                     */
                    phone_number: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "0b5c7e0e-8a7f-4a3e-9d51-4c1f0f2b9a10",
                         *       "errors": []
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/rate-card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company's rate card: its own, or the one shipped with the service (addition)
         * @description Costs in reports and dry runs are estimated with it at Meta's list price: not an invoice (volume tiers, free windows, taxes and a provider's fees are not in it). A market or category without a figure is reported as unknown, never priced. The shipped card gives each figure's public source and its effective date.
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "source": "default",
                         *         "currency": "USD",
                         *         "effective_date": "2025-07-01",
                         *         "note": "Estimated at Meta's list price per delivered message; not an invoice.",
                         *         "rates": [
                         *           {
                         *             "market": "AR",
                         *             "category": "marketing",
                         *             "price": 0.0618,
                         *             "source": "https://docs.sent.dm/docs/guides/whatsapp-pricing"
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "source": "default",
                             *       "currency": "USD",
                             *       "effective_date": "2025-07-01",
                             *       "note": "Estimated at Meta's list price per delivered message; not an invoice.",
                             *       "rates": [
                             *         {
                             *           "market": "AR",
                             *           "category": "marketing",
                             *           "price": 0.0618,
                             *           "source": "https://docs.sent.dm/docs/guides/whatsapp-pricing"
                             *         }
                             *       ]
                             *     }
                             */
                            data: {
                                /** @description default: the card shipped with the service; company: the company's own */
                                source: "default" | "company";
                                /**
                                 * @description ISO 4217
                                 * @example USD
                                 */
                                currency: string;
                                /**
                                 * @description YYYY-MM-DD
                                 * @example 2025-07-01
                                 */
                                effective_date: string;
                                note: string;
                                rates: {
                                    /**
                                     * @description ISO 3166-1 alpha-2 country of the recipient (from the phone number, or the BSUID prefix)
                                     * @example AR
                                     */
                                    market: string;
                                    /**
                                     * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                     * @example marketing
                                     */
                                    category: string;
                                    /** @description per delivered message, in the card currency; null = unknown */
                                    price: number | null;
                                    /** @description where the figure comes from (URL or text); null when not given */
                                    source: string | null;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        /**
         * Replace the company's rate card (addition)
         * @description Costs in reports and dry runs are estimated with it at Meta's list price: not an invoice (volume tiers, free windows, taxes and a provider's fees are not in it). A market or category without a figure is reported as unknown, never priced. The whole card is replaced. A bad currency, date, market (ISO 3166-1 alpha-2), category, a negative price or one with more than 6 decimals, or a market and category given twice is 400 RATE_CARD_INVALID naming the field (rates[i].price); nothing is written.
         */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    /**
                     * @example {
                     *       "currency": "USD",
                     *       "effective_date": "2026-10-01",
                     *       "rates": [
                     *         {
                     *           "market": "AR",
                     *           "category": "marketing",
                     *           "price": 0.0618,
                     *           "source": "Meta rate card CSV"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /**
                         * @description ISO 4217, three capital letters
                         * @example USD
                         */
                        currency: string;
                        /**
                         * @description YYYY-MM-DD
                         * @example 2026-10-01
                         */
                        effective_date: string;
                        note?: string;
                        rates: {
                            market: string;
                            category: "marketing" | "marketing_lite" | "utility" | "authentication" | "authentication_international" | "service";
                            /** @description at most 6 decimals; null = unknown */
                            price: number | null;
                            source?: string | null;
                        }[];
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "source": "default",
                         *         "currency": "USD",
                         *         "effective_date": "2025-07-01",
                         *         "note": "Estimated at Meta's list price per delivered message; not an invoice.",
                         *         "rates": [
                         *           {
                         *             "market": "AR",
                         *             "category": "marketing",
                         *             "price": 0.0618,
                         *             "source": "https://docs.sent.dm/docs/guides/whatsapp-pricing"
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "source": "default",
                             *       "currency": "USD",
                             *       "effective_date": "2025-07-01",
                             *       "note": "Estimated at Meta's list price per delivered message; not an invoice.",
                             *       "rates": [
                             *         {
                             *           "market": "AR",
                             *           "category": "marketing",
                             *           "price": 0.0618,
                             *           "source": "https://docs.sent.dm/docs/guides/whatsapp-pricing"
                             *         }
                             *       ]
                             *     }
                             */
                            data: {
                                /** @description default: the card shipped with the service; company: the company's own */
                                source: "default" | "company";
                                /**
                                 * @description ISO 4217
                                 * @example USD
                                 */
                                currency: string;
                                /**
                                 * @description YYYY-MM-DD
                                 * @example 2025-07-01
                                 */
                                effective_date: string;
                                note: string;
                                rates: {
                                    /**
                                     * @description ISO 3166-1 alpha-2 country of the recipient (from the phone number, or the BSUID prefix)
                                     * @example AR
                                     */
                                    market: string;
                                    /**
                                     * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                     * @example marketing
                                     */
                                    category: string;
                                    /** @description per delivered message, in the card currency; null = unknown */
                                    price: number | null;
                                    /** @description where the figure comes from (URL or text); null when not given */
                                    source: string | null;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        post?: never;
        /**
         * Go back to the rate card shipped with the service (addition)
         * @description Costs in reports and dry runs are estimated with it at Meta's list price: not an invoice (volume tiers, free windows, taxes and a provider's fees are not in it). A market or category without a figure is reported as unknown, never priced.
         */
        delete: {
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "source": "default",
                         *         "currency": "USD",
                         *         "effective_date": "2025-07-01",
                         *         "note": "Estimated at Meta's list price per delivered message; not an invoice.",
                         *         "rates": [
                         *           {
                         *             "market": "AR",
                         *             "category": "marketing",
                         *             "price": 0.0618,
                         *             "source": "https://docs.sent.dm/docs/guides/whatsapp-pricing"
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "source": "default",
                             *       "currency": "USD",
                             *       "effective_date": "2025-07-01",
                             *       "note": "Estimated at Meta's list price per delivered message; not an invoice.",
                             *       "rates": [
                             *         {
                             *           "market": "AR",
                             *           "category": "marketing",
                             *           "price": 0.0618,
                             *           "source": "https://docs.sent.dm/docs/guides/whatsapp-pricing"
                             *         }
                             *       ]
                             *     }
                             */
                            data: {
                                /** @description default: the card shipped with the service; company: the company's own */
                                source: "default" | "company";
                                /**
                                 * @description ISO 4217
                                 * @example USD
                                 */
                                currency: string;
                                /**
                                 * @description YYYY-MM-DD
                                 * @example 2025-07-01
                                 */
                                effective_date: string;
                                note: string;
                                rates: {
                                    /**
                                     * @description ISO 3166-1 alpha-2 country of the recipient (from the phone number, or the BSUID prefix)
                                     * @example AR
                                     */
                                    market: string;
                                    /**
                                     * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                     * @example marketing
                                     */
                                    category: string;
                                    /** @description per delivered message, in the card currency; null = unknown */
                                    price: number | null;
                                    /** @description where the figure comes from (URL or text); null when not given */
                                    source: string | null;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/send-wizards/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a bulk send (addition): no new row is handed to the network until resume
         * @description RUNNING or PAUSED (by the service) → PAUSED_BY_USER; rows not yet handed to the network wait again (NONE). No body. A second pause answers 200; SCHEDULED is 409 BULK_SEND_NOT_STARTED, STOPPED/COMPLETED 409 BULK_SEND_FINISHED; another company's id 404.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @example 6752f0a1c3d4e5f601234567 */
                    id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "send_wizard_id": "6752f0a1c3d4e5f601234567",
                         *         "status": "PAUSED_BY_USER",
                         *         "paused_reason": null,
                         *         "parked_count": 812,
                         *         "window_seconds": 0
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "PAUSED_BY_USER",
                             *       "paused_reason": null,
                             *       "parked_count": 812,
                             *       "window_seconds": 0
                             *     }
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "RUNNING",
                             *       "paused_reason": null,
                             *       "parked_count": 0,
                             *       "window_seconds": 1450
                             *     }
                             */
                            data: {
                                send_wizard_id: string;
                                status: "PENDING" | "SCHEDULED" | "RUNNING" | "PAUSED" | "PAUSED_BY_USER" | "STOPPED" | "COMPLETED";
                                /** @description the service's own pause reason (channel FLAGGED/RED, TIER_LIMIT, token refused): kept through a user pause and restored by resume */
                                paused_reason: string | null;
                                /** @description rows this pause sent back to waiting (NONE); 0 for resume */
                                parked_count: number;
                                /** @description resume: seconds of the total_time window left, over which the waiting rows are spread from now (0: as fast as the channel allows); 0 for pause */
                                window_seconds: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/send-wizards/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a bulk send the user paused (addition)
         * @description PAUSED_BY_USER → RUNNING, or PAUSED when the service's own reason was in force at the pause. The rest of the total_time window restarts now. No body. RUNNING or PAUSED: 200, unchanged; SCHEDULED 409 BULK_SEND_NOT_STARTED; STOPPED/COMPLETED 409 BULK_SEND_FINISHED.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @example 6752f0a1c3d4e5f601234567 */
                    id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "send_wizard_id": "6752f0a1c3d4e5f601234567",
                         *         "status": "PAUSED_BY_USER",
                         *         "paused_reason": null,
                         *         "parked_count": 812,
                         *         "window_seconds": 0
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "PAUSED_BY_USER",
                             *       "paused_reason": null,
                             *       "parked_count": 812,
                             *       "window_seconds": 0
                             *     }
                             * @example {
                             *       "send_wizard_id": "6752f0a1c3d4e5f601234567",
                             *       "status": "RUNNING",
                             *       "paused_reason": null,
                             *       "parked_count": 0,
                             *       "window_seconds": 1450
                             *     }
                             */
                            data: {
                                send_wizard_id: string;
                                status: "PENDING" | "SCHEDULED" | "RUNNING" | "PAUSED" | "PAUSED_BY_USER" | "STOPPED" | "COMPLETED";
                                /** @description the service's own pause reason (channel FLAGGED/RED, TIER_LIMIT, token refused): kept through a user pause and restored by resume */
                                paused_reason: string | null;
                                /** @description rows this pause sent back to waiting (NONE); 0 for resume */
                                parked_count: number;
                                /** @description resume: seconds of the total_time window left, over which the waiting rows are spread from now (0: as fast as the channel allows); 0 for pause */
                                window_seconds: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/send-wizards/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new bulk send from the failed rows of a finished one (addition)
         * @description Same rules as `POST /agent-app/message-template/send-wizard/retry`; the body holds only the options (`{}` for every failed row now).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @example 6752f0a1c3d4e5f601234567 */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description only failed rows whose network error code (as error_message_detail starts, e.g. 131049) is one of these */
                        error_codes?: number[];
                        /**
                         * Format: date-time
                         * @description Addition: start at this time instead of now (ISO 8601 with an offset, later than now, at most 90 days ahead). Until then the bulk send is SCHEDULED and its rows NONE; total_time spreads from the actual start.
                         * @example 2026-11-24T09:00:00+03:00
                         */
                        scheduled_at?: string;
                        /** @description seconds to spread the new bulk send over (default 0: as fast as the channel allows) */
                        total_time?: number;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "send_wizard_id": "6752f3b0c3d4e5f601234999",
                         *         "retry_of": "6752f0a1c3d4e5f601234567",
                         *         "status": "SCHEDULED",
                         *         "summary": 37,
                         *         "failed_count": 52,
                         *         "filtered_count": 12,
                         *         "excluded_count": 3,
                         *         "scheduled_at": "2026-11-25T09:00:00.000Z"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "send_wizard_id": "6752f3b0c3d4e5f601234999",
                             *       "retry_of": "6752f0a1c3d4e5f601234567",
                             *       "status": "SCHEDULED",
                             *       "summary": 37,
                             *       "failed_count": 52,
                             *       "filtered_count": 12,
                             *       "excluded_count": 3,
                             *       "scheduled_at": "2026-11-25T09:00:00.000Z"
                             *     }
                             */
                            data: {
                                /** @description the NEW bulk send */
                                send_wizard_id: string;
                                /** @description the bulk send whose failed rows it took */
                                retry_of: string;
                                status: "RUNNING" | "SCHEDULED";
                                /** @description rows taken into the new bulk send */
                                summary: number;
                                /** @description failed rows of the source */
                                failed_count: number;
                                /** @description failed rows left out by error_codes */
                                filtered_count: number;
                                /** @description failed rows left out because the recipient may have the message (accepted by the network, outcome unknown, or a later message of the template that did not fail) */
                                excluded_count: number;
                                scheduled_at: string | null;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/send-wizards/{id}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A bulk send's rows over time: handed to the network, sent, delivered, read, failed; failures by reason (addition)
         * @description Cumulative counts per bucket (at most 120 buckets of a whole number of seconds, minutes or hours) from the rows' own time fields. sent/delivered/read are the network's words (BACKEND_DELIVERED, BACKEND_SENT, BACKEND_SEEN). A bulk send of more than 2,000 rows is read every k-th row and scaled (estimated: true), so the answer costs the same for any size. `failures`: every failed row counted by the code that starts its error detail, most first. Another company's id is 404 like a missing one.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @example 6752f0a1c3d4e5f601234567 */
                    id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "rows": 2,
                         *         "sampled_rows": 2,
                         *         "estimated": false,
                         *         "bucket_seconds": 1,
                         *         "points": [
                         *           {
                         *             "at": "2026-11-24T09:00:00.000Z",
                         *             "handed": 0,
                         *             "sent": 0,
                         *             "delivered": 0,
                         *             "read": 0,
                         *             "failed": 0
                         *           },
                         *           {
                         *             "at": "2026-11-24T09:00:01.000Z",
                         *             "handed": 2,
                         *             "sent": 2,
                         *             "delivered": 1,
                         *             "read": 0,
                         *             "failed": 0
                         *           },
                         *           {
                         *             "at": "2026-11-24T09:00:02.000Z",
                         *             "handed": 2,
                         *             "sent": 2,
                         *             "delivered": 2,
                         *             "read": 1,
                         *             "failed": 0
                         *           }
                         *         ],
                         *         "failures": []
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                /** @description rows of the bulk send */
                                rows: number;
                                /** @description rows read for the curves: every row, or every k-th of a large send */
                                sampled_rows: number;
                                /** @description true when the curves are scaled up from a sample of the rows */
                                estimated: boolean;
                                /** @description width of a bucket (0 when nothing happened yet) */
                                bucket_seconds: number;
                                points: {
                                    /**
                                     * Format: date-time
                                     * @description end of the bucket (the first point is the start)
                                     */
                                    at: string;
                                    /** @description rows handed to the network by then */
                                    handed: number;
                                    /** @description rows the network had accepted (its `sent`; status BACKEND_DELIVERED or beyond) */
                                    sent: number;
                                    /** @description rows on the customer's phone (`delivered`; BACKEND_SENT or beyond) */
                                    delivered: number;
                                    /** @description rows read (`read`; BACKEND_SEEN) */
                                    read: number;
                                    /** @description rows failed */
                                    failed: number;
                                }[];
                                /** @description at most 20, most first */
                                failures: {
                                    /** @description the code that starts the error detail (the network's, e.g. 131049, or the service's, e.g. RECIPIENT_OPTED_OUT); null when none */
                                    code: string | null;
                                    /** @description one error message of that code */
                                    title: string | null;
                                    /** @description failed messages with that code */
                                    count: number;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Volume, delivery and read rates, failures by code and tier use of the last 24 h, 7 d or 30 d (addition)
         * @description For the company, or one channel with channel_id: messages made in the period (bulk rows counted by their bulk send's creation time from its counters, single sends by their own), how many the network accepted (sent), delivered and read, or failed, per hour (24h) or UTC day (7d, 30d); delivered_rate = delivered ÷ sent and read_rate = read ÷ delivered; failures grouped by the code that starts the error detail; each channel's customers in the rolling 24 h against its tier. Another company's channel is 404 CHANNEL_NOT_FOUND.
         */
        get: {
            parameters: {
                query?: {
                    /**
                     * @description the last 24h (hourly), 7d or 30d (daily); default 24h
                     * @example 7d
                     */
                    period?: "24h" | "7d" | "30d";
                    /**
                     * @description one channel; all of the company when absent
                     * @example 110000000000001
                     */
                    channel_id?: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "period": "24h",
                         *         "from": "2026-11-23T09:00:00.000Z",
                         *         "to": "2026-11-24T09:00:00.000Z",
                         *         "bucket_seconds": 3600,
                         *         "channel_id": null,
                         *         "totals": {
                         *           "messages": 120,
                         *           "bulk_sends": 2,
                         *           "single_sends": 20,
                         *           "sent": 118,
                         *           "delivered": 110,
                         *           "read": 80,
                         *           "failed": 2,
                         *           "cancelled": 0,
                         *           "delivered_rate": 93.2,
                         *           "read_rate": 72.7
                         *         },
                         *         "series": [
                         *           {
                         *             "at": "2026-11-24T08:00:00.000Z",
                         *             "messages": 120,
                         *             "sent": 118,
                         *             "delivered": 110,
                         *             "read": 80,
                         *             "failed": 2
                         *           }
                         *         ],
                         *         "failures": [
                         *           {
                         *             "code": "131049",
                         *             "title": "This message was not delivered to maintain healthy ecosystem engagement.",
                         *             "count": 2
                         *           }
                         *         ],
                         *         "cost": {
                         *           "currency": "USD",
                         *           "estimated_cost": 0.2472,
                         *           "complete": true,
                         *           "billable_count": 4,
                         *           "unknown_price_count": 0,
                         *           "by_market": [
                         *             {
                         *               "market": "AR",
                         *               "category": "marketing",
                         *               "billable_count": 4,
                         *               "price": 0.0618,
                         *               "cost": 0.2472
                         *             }
                         *           ],
                         *           "rate_card_effective_date": "2025-07-01",
                         *           "rate_card_source": "default",
                         *           "note": "Estimated at Meta's list price per delivered message; not an invoice."
                         *         },
                         *         "channels": [
                         *           {
                         *             "channel_id": "110000000000001",
                         *             "name": "Demo Main",
                         *             "messaging_limit_tier": "TIER_2K",
                         *             "tier_limit": 2000,
                         *             "tier_used_24h": 118
                         *           }
                         *         ]
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            data: {
                                period: string;
                                /** Format: date-time */
                                from: string;
                                /** Format: date-time */
                                to: string;
                                /** @description 3600 for 24h, 86400 (UTC days) for 7d and 30d */
                                bucket_seconds: number;
                                channel_id: string | null;
                                totals: {
                                    /** @description messages made in the period (bulk rows by their bulk send, single sends) */
                                    messages: number;
                                    /** @description accepted by the network (its `sent`) */
                                    sent: number;
                                    /** @description on the customer's phone (`delivered`) */
                                    delivered: number;
                                    /** @description read */
                                    read: number;
                                    /** @description failed */
                                    failed: number;
                                    /** @description bulk sends created in the period */
                                    bulk_sends: number;
                                    /** @description single sends made in the period */
                                    single_sends: number;
                                    /** @description bulk rows cancelled by a stop */
                                    cancelled: number;
                                    /** @description delivered ÷ sent, percent; null when nothing was sent */
                                    delivered_rate: number | null;
                                    /** @description read ÷ delivered, percent; null when nothing was delivered */
                                    read_rate: number | null;
                                };
                                series: {
                                    /**
                                     * Format: date-time
                                     * @description start of the bucket
                                     */
                                    at: string;
                                    /** @description messages made in the period (bulk rows by their bulk send, single sends) */
                                    messages: number;
                                    /** @description accepted by the network (its `sent`) */
                                    sent: number;
                                    /** @description on the customer's phone (`delivered`) */
                                    delivered: number;
                                    /** @description read */
                                    read: number;
                                    /** @description failed */
                                    failed: number;
                                }[];
                                /** @description at most 20, most first */
                                failures: {
                                    /** @description the code that starts the error detail (the network's, e.g. 131049, or the service's, e.g. RECIPIENT_OPTED_OUT); null when none */
                                    code: string | null;
                                    /** @description one error message of that code */
                                    title: string | null;
                                    /** @description failed messages with that code */
                                    count: number;
                                }[];
                                /**
                                 * @description Estimated at Meta's list price from the company's rate card (GET /api/v1/rate-card); not an invoice.
                                 * @example {
                                 *       "currency": "USD",
                                 *       "estimated_cost": 0.2472,
                                 *       "complete": true,
                                 *       "billable_count": 4,
                                 *       "unknown_price_count": 0,
                                 *       "by_market": [
                                 *         {
                                 *           "market": "AR",
                                 *           "category": "marketing",
                                 *           "billable_count": 4,
                                 *           "price": 0.0618,
                                 *           "cost": 0.2472
                                 *         }
                                 *       ],
                                 *       "rate_card_effective_date": "2025-07-01",
                                 *       "rate_card_source": "default",
                                 *       "note": "Estimated at Meta's list price per delivered message; not an invoice."
                                 *     }
                                 */
                                cost: {
                                    currency: string;
                                    /** @description sum of the lines with a known price */
                                    estimated_cost: number;
                                    /** @description false when some billable message has no known price (unknown_price_count) */
                                    complete: boolean;
                                    billable_count: number;
                                    unknown_price_count: number;
                                    by_market: {
                                        /** @description null: the recipient’s country is unknown */
                                        market: string | null;
                                        /**
                                         * @description pricing category: marketing, marketing_lite, utility, authentication, authentication_international, service
                                         * @example marketing
                                         */
                                        category: string;
                                        billable_count: number;
                                        /** @description null: the card has no figure (unknown, not priced) */
                                        price: number | null;
                                        cost: number | null;
                                    }[];
                                    rate_card_effective_date: string;
                                    rate_card_source: "default" | "company";
                                    /** @description always: Meta's list price, not an invoice */
                                    note: string;
                                };
                                channels: {
                                    channel_id: string;
                                    name: string;
                                    messaging_limit_tier: string;
                                    /** @description new customers allowed per rolling 24 h; null = no cap */
                                    tier_limit: number | null;
                                    /** @description customers messaged in the rolling 24 h */
                                    tier_used_24h: number;
                                }[];
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The caller's webhook endpoints
         * @description Oldest first, without secrets; `enabled`, `disabled_reason`, the failure streak and `backlog` (pending deliveries, the oldest, the next attempt) show their health. An addition: see docs/webhooks-out.md.
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "items": [
                         *         {
                         *           "id": "6743a1f0a1b2c3d4e5f60718",
                         *           "url": "https://hooks.example.com/tms",
                         *           "description": "CRM status sync",
                         *           "events": [
                         *             "*"
                         *           ],
                         *           "enabled": true,
                         *           "disabled_reason": null,
                         *           "disabled_at": null,
                         *           "consecutive_failures": 0,
                         *           "failing_since": null,
                         *           "last_success_at": "2026-11-23T16:05:12.345Z",
                         *           "created_at": "2026-11-23T16:00:00.000Z",
                         *           "updated_at": "2026-11-23T16:00:00.000Z",
                         *           "backlog": {
                         *             "pending": 0,
                         *             "oldest_pending_at": null,
                         *             "next_attempt_at": null
                         *           }
                         *         }
                         *       ]
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            items: {
                                id: string;
                                url: string;
                                description: string;
                                events: ("message.status_changed" | "bulk_send.status_changed" | "*")[];
                                enabled: boolean;
                                disabled_reason: string | null;
                                disabled_at: string | null;
                                /** @description failed attempts in a row since the last success */
                                consecutive_failures: number;
                                failing_since: string | null;
                                last_success_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description addition: the endpoint's undelivered deliveries. A backlog over CLIENT_WEBHOOK_MAX_PENDING disables the endpoint (disabled_reason says so); it is kept and delivered once the endpoint is enabled again, or given up after the retry window */
                                backlog: {
                                    /** @description deliveries not yet delivered nor given up (counted up to 1,000,000) */
                                    pending: number;
                                    oldest_pending_at: string | null;
                                    next_attempt_at: string | null;
                                };
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Register a client webhook endpoint
         * @description Every status change of the selected events is POSTed to the URL, signed with the secret (X-TMS-Signature). The secret is in this answer only; it is stored sealed and never shown again (rotate it with PATCH). An addition: see docs/webhooks-out.md.
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
                    /**
                     * @example {
                     *       "url": "https://hooks.example.com/tms",
                     *       "description": "CRM status sync",
                     *       "events": [
                     *         "message.status_changed",
                     *         "bulk_send.status_changed"
                     *       ]
                     *     }
                     */
                    "application/json": {
                        /** @description absolute http(s) URL; no credentials, no fragment */
                        url: string;
                        description?: string;
                        events?: ("message.status_changed" | "bulk_send.status_changed" | "*")[];
                        /** @description 16-256 printable ASCII characters; generated (whsec_…) when absent */
                        secret?: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "id": "6743a1f0a1b2c3d4e5f60718",
                         *         "url": "https://hooks.example.com/tms",
                         *         "description": "CRM status sync",
                         *         "events": [
                         *           "*"
                         *         ],
                         *         "enabled": true,
                         *         "disabled_reason": null,
                         *         "disabled_at": null,
                         *         "consecutive_failures": 0,
                         *         "failing_since": null,
                         *         "last_success_at": "2026-11-23T16:05:12.345Z",
                         *         "created_at": "2026-11-23T16:00:00.000Z",
                         *         "updated_at": "2026-11-23T16:00:00.000Z",
                         *         "backlog": {
                         *           "pending": 0,
                         *           "oldest_pending_at": null,
                         *           "next_attempt_at": null
                         *         },
                         *         "secret": "whsec_q5cJ0n1lQe0N2yq2Yw0m7m4o3v0cX1x8dGq8m2pK1sQ"
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "id": "6743a1f0a1b2c3d4e5f60718",
                             *       "url": "https://hooks.example.com/tms",
                             *       "description": "CRM status sync",
                             *       "events": [
                             *         "*"
                             *       ],
                             *       "enabled": true,
                             *       "disabled_reason": null,
                             *       "disabled_at": null,
                             *       "consecutive_failures": 0,
                             *       "failing_since": null,
                             *       "last_success_at": "2026-11-23T16:05:12.345Z",
                             *       "created_at": "2026-11-23T16:00:00.000Z",
                             *       "updated_at": "2026-11-23T16:00:00.000Z",
                             *       "backlog": {
                             *         "pending": 0,
                             *         "oldest_pending_at": null,
                             *         "next_attempt_at": null
                             *       },
                             *       "secret": "whsec_q5cJ0n1lQe0N2yq2Yw0m7m4o3v0cX1x8dGq8m2pK1sQ"
                             *     }
                             */
                            data: {
                                id: string;
                                url: string;
                                description: string;
                                events: ("message.status_changed" | "bulk_send.status_changed" | "*")[];
                                enabled: boolean;
                                disabled_reason: string | null;
                                disabled_at: string | null;
                                /** @description failed attempts in a row since the last success */
                                consecutive_failures: number;
                                failing_since: string | null;
                                last_success_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description addition: the endpoint's undelivered deliveries. A backlog over CLIENT_WEBHOOK_MAX_PENDING disables the endpoint (disabled_reason says so); it is kept and delivered once the endpoint is enabled again, or given up after the retry window */
                                backlog: {
                                    /** @description deliveries not yet delivered nor given up (counted up to 1,000,000) */
                                    pending: number;
                                    oldest_pending_at: string | null;
                                    next_attempt_at: string | null;
                                };
                                /** @description the signing secret: shown this once, store it now */
                                secret: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook endpoint
         * @description Without its secret. Another company's id answers 404 WEBHOOK_ENDPOINT_NOT_FOUND. An addition: see docs/webhooks-out.md.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description endpoint id
                     * @example 6743a1f0a1b2c3d4e5f60718
                     */
                    id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "id": "6743a1f0a1b2c3d4e5f60718",
                         *         "url": "https://hooks.example.com/tms",
                         *         "description": "CRM status sync",
                         *         "events": [
                         *           "*"
                         *         ],
                         *         "enabled": true,
                         *         "disabled_reason": null,
                         *         "disabled_at": null,
                         *         "consecutive_failures": 0,
                         *         "failing_since": null,
                         *         "last_success_at": "2026-11-23T16:05:12.345Z",
                         *         "created_at": "2026-11-23T16:00:00.000Z",
                         *         "updated_at": "2026-11-23T16:00:00.000Z",
                         *         "backlog": {
                         *           "pending": 0,
                         *           "oldest_pending_at": null,
                         *           "next_attempt_at": null
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "id": "6743a1f0a1b2c3d4e5f60718",
                             *       "url": "https://hooks.example.com/tms",
                             *       "description": "CRM status sync",
                             *       "events": [
                             *         "*"
                             *       ],
                             *       "enabled": true,
                             *       "disabled_reason": null,
                             *       "disabled_at": null,
                             *       "consecutive_failures": 0,
                             *       "failing_since": null,
                             *       "last_success_at": "2026-11-23T16:05:12.345Z",
                             *       "created_at": "2026-11-23T16:00:00.000Z",
                             *       "updated_at": "2026-11-23T16:00:00.000Z",
                             *       "backlog": {
                             *         "pending": 0,
                             *         "oldest_pending_at": null,
                             *         "next_attempt_at": null
                             *       }
                             *     }
                             */
                            data: {
                                id: string;
                                url: string;
                                description: string;
                                events: ("message.status_changed" | "bulk_send.status_changed" | "*")[];
                                enabled: boolean;
                                disabled_reason: string | null;
                                disabled_at: string | null;
                                /** @description failed attempts in a row since the last success */
                                consecutive_failures: number;
                                failing_since: string | null;
                                last_success_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description addition: the endpoint's undelivered deliveries. A backlog over CLIENT_WEBHOOK_MAX_PENDING disables the endpoint (disabled_reason says so); it is kept and delivered once the endpoint is enabled again, or given up after the retry window */
                                backlog: {
                                    /** @description deliveries not yet delivered nor given up (counted up to 1,000,000) */
                                    pending: number;
                                    oldest_pending_at: string | null;
                                    next_attempt_at: string | null;
                                };
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /**
         * Remove a webhook endpoint and its delivery log
         * @description Deliveries not yet made are dropped. An addition: see docs/webhooks-out.md.
         */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description endpoint id
                     * @example 6743a1f0a1b2c3d4e5f60718
                     */
                    id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": []
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint: enable, disable, rotate the secret, URL, events
         * @description `enabled: true` re-enables an endpoint (also one the service disabled) and clears its failure streak; `rotate_secret: true` replaces the secret and returns the new one once (deliveries sign with it at once). An addition: see docs/webhooks-out.md.
         */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description endpoint id
                     * @example 6743a1f0a1b2c3d4e5f60718
                     */
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description absolute http(s) URL; no credentials, no fragment */
                        url?: string;
                        description?: string;
                        events?: ("message.status_changed" | "bulk_send.status_changed" | "*")[];
                        /** @description false disables; true enables again and clears the failure streak */
                        enabled?: boolean;
                        /** @description true replaces the secret; the new one is in the answer, once */
                        rotate_secret?: boolean;
                        /** @description 16-256 printable ASCII characters; generated (whsec_…) when absent */
                        secret?: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "id": "6743a1f0a1b2c3d4e5f60718",
                         *         "url": "https://hooks.example.com/tms",
                         *         "description": "CRM status sync",
                         *         "events": [
                         *           "*"
                         *         ],
                         *         "enabled": true,
                         *         "disabled_reason": null,
                         *         "disabled_at": null,
                         *         "consecutive_failures": 0,
                         *         "failing_since": null,
                         *         "last_success_at": "2026-11-23T16:05:12.345Z",
                         *         "created_at": "2026-11-23T16:00:00.000Z",
                         *         "updated_at": "2026-11-23T16:00:00.000Z",
                         *         "backlog": {
                         *           "pending": 0,
                         *           "oldest_pending_at": null,
                         *           "next_attempt_at": null
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "id": "6743a1f0a1b2c3d4e5f60718",
                             *       "url": "https://hooks.example.com/tms",
                             *       "description": "CRM status sync",
                             *       "events": [
                             *         "*"
                             *       ],
                             *       "enabled": true,
                             *       "disabled_reason": null,
                             *       "disabled_at": null,
                             *       "consecutive_failures": 0,
                             *       "failing_since": null,
                             *       "last_success_at": "2026-11-23T16:05:12.345Z",
                             *       "created_at": "2026-11-23T16:00:00.000Z",
                             *       "updated_at": "2026-11-23T16:00:00.000Z",
                             *       "backlog": {
                             *         "pending": 0,
                             *         "oldest_pending_at": null,
                             *         "next_attempt_at": null
                             *       }
                             *     }
                             */
                            data: {
                                id: string;
                                url: string;
                                description: string;
                                events: ("message.status_changed" | "bulk_send.status_changed" | "*")[];
                                enabled: boolean;
                                disabled_reason: string | null;
                                disabled_at: string | null;
                                /** @description failed attempts in a row since the last success */
                                consecutive_failures: number;
                                failing_since: string | null;
                                last_success_at: string | null;
                                /** Format: date-time */
                                created_at: string;
                                /** Format: date-time */
                                updated_at: string;
                                /** @description addition: the endpoint's undelivered deliveries. A backlog over CLIENT_WEBHOOK_MAX_PENDING disables the endpoint (disabled_reason says so); it is kept and delivered once the endpoint is enabled again, or given up after the retry window */
                                backlog: {
                                    /** @description deliveries not yet delivered nor given up (counted up to 1,000,000) */
                                    pending: number;
                                    oldest_pending_at: string | null;
                                    next_attempt_at: string | null;
                                };
                                /** @description the new secret, only when rotate_secret was true */
                                secret?: string;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An endpoint's delivery log, newest first
         * @description Each delivery is one event to this endpoint with its attempts, last answer and state (PENDING, DELIVERED, FAILED). Finished deliveries are kept 7 days (CLIENT_WEBHOOK_RETENTION_SECONDS). An addition: see docs/webhooks-out.md.
         */
        get: {
            parameters: {
                query?: {
                    /**
                     * @description only deliveries in this state
                     * @example FAILED
                     */
                    status?: "PENDING" | "DELIVERED" | "FAILED";
                    /**
                     * @description page number from 1 (default 1)
                     * @example 1
                     */
                    page?: string;
                    /**
                     * @description rows per page, 1-500 (default 20)
                     * @example 20
                     */
                    page_size?: string;
                };
                header?: never;
                path: {
                    /**
                     * @description endpoint id
                     * @example 6743a1f0a1b2c3d4e5f60718
                     */
                    id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "items": [
                         *         {
                         *           "id": "1042",
                         *           "event_id": "0b6f3f5e-4a36-4d5e-9a53-2f1f4f6b9a10",
                         *           "event_type": "message.status_changed",
                         *           "status": "DELIVERED",
                         *           "attempts": 2,
                         *           "next_attempt_at": null,
                         *           "last_attempt_at": "2026-11-23T16:05:12.300Z",
                         *           "last_status_code": 200,
                         *           "last_error": null,
                         *           "delivered_at": "2026-11-23T16:05:12.345Z",
                         *           "occurred_at": "2026-11-23T16:04:58.120Z",
                         *           "created_at": "2026-11-23T16:04:58.120Z",
                         *           "replay_of": null,
                         *           "data": {
                         *             "message_id": "6743a1f0a1b2c3d4e5f60799",
                         *             "send_wizard_id": null,
                         *             "row_no": null,
                         *             "channel_id": "110000000000001",
                         *             "phone_number": "905551234567",
                         *             "user_id": "TR.13491208655302741918",
                         *             "parent_user_id": null,
                         *             "username": null,
                         *             "status": "BACKEND_SENT",
                         *             "previous_status": "BACKEND_DELIVERED",
                         *             "ext_id": "wamid.HBgMOTA1NTUxMjM0NTY3",
                         *             "error_message": null,
                         *             "error_message_detail": null
                         *           }
                         *         }
                         *       ],
                         *       "pagination": {
                         *         "page": 1,
                         *         "page_size": 20,
                         *         "total": 1
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            items: {
                                /** @description delivery id (the X-TMS-Delivery-Id header) */
                                id: string;
                                /** @description the event id (X-TMS-Event-Id; the same on a replay) */
                                event_id: string;
                                event_type: string;
                                /** @description PENDING (to send or retrying), DELIVERED, FAILED (given up) */
                                status: "PENDING" | "DELIVERED" | "FAILED";
                                attempts: number;
                                next_attempt_at: string | null;
                                last_attempt_at: string | null;
                                last_status_code: number | null;
                                last_error: string | null;
                                delivered_at: string | null;
                                /** Format: date-time */
                                occurred_at: string;
                                /** Format: date-time */
                                created_at: string;
                                replay_of: string | null;
                                /** @description the event's data, as in the POSTed body (docs/webhooks-out.md) */
                                data: {
                                    message_id: string;
                                    send_wizard_id: string | null;
                                    row_no: number | null;
                                    channel_id: string;
                                    /** @description E.164; null for a message sent to a BSUID whose phone number is not known */
                                    phone_number: string | null;
                                    /** @description the recipient's BSUID, given with the send or reported by the network; null when unknown */
                                    user_id: string | null;
                                    /** @description the parent BSUID the network reported; null when none */
                                    parent_user_id: string | null;
                                    /** @description the recipient's WhatsApp username, when the network showed one */
                                    username: string | null;
                                    status: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                                    previous_status: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                                    ext_id: string | null;
                                    error_message: string | null;
                                    error_message_detail: string | null;
                                } | {
                                    send_wizard_id: string;
                                    channel_id: string;
                                    template_id: string;
                                    template_name: string;
                                    /** @description RUNNING, PAUSED, STOPPED, COMPLETED (and any status added later) */
                                    status: string;
                                    previous_status: string | null;
                                    paused_reason: string | null;
                                    counters: {
                                        summary: number;
                                        waiting: number;
                                        queued: number;
                                        processed_count: number;
                                        awaiting_backend_count: number;
                                        failed_count: number;
                                        delivered_count: number;
                                        sent_count: number;
                                        seen_count: number;
                                        cancelled_count: number;
                                        duplicate_count: number;
                                    };
                                };
                            }[];
                            /**
                             * @example {
                             *       "page": 1,
                             *       "page_size": 20,
                             *       "total": 1
                             *     }
                             */
                            pagination: {
                                page: number;
                                page_size: number;
                                total: number;
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
    "/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Queues the same event (same event id) as a new delivery, due now, outside the per-message order. The endpoint must be enabled (409 WEBHOOK_ENDPOINT_DISABLED). An addition: see docs/webhooks-out.md.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description endpoint id
                     * @example 6743a1f0a1b2c3d4e5f60718
                     */
                    id: string;
                    /**
                     * @description delivery id (digits)
                     * @example 1042
                     */
                    delivery_id: string;
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
                        /**
                         * @example {
                         *       "success": true,
                         *       "message": "",
                         *       "status_code": 200,
                         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
                         *       "errors": [],
                         *       "data": {
                         *         "id": "1043",
                         *         "event_id": "0b6f3f5e-4a36-4d5e-9a53-2f1f4f6b9a10",
                         *         "event_type": "message.status_changed",
                         *         "status": "PENDING",
                         *         "attempts": 0,
                         *         "next_attempt_at": "2026-11-23T16:20:00.000Z",
                         *         "last_attempt_at": null,
                         *         "last_status_code": null,
                         *         "last_error": null,
                         *         "delivered_at": null,
                         *         "occurred_at": "2026-11-23T16:04:58.120Z",
                         *         "created_at": "2026-11-23T16:04:58.120Z",
                         *         "replay_of": "1042",
                         *         "data": {
                         *           "message_id": "6743a1f0a1b2c3d4e5f60799",
                         *           "send_wizard_id": null,
                         *           "row_no": null,
                         *           "channel_id": "110000000000001",
                         *           "phone_number": "905551234567",
                         *           "user_id": "TR.13491208655302741918",
                         *           "parent_user_id": null,
                         *           "username": null,
                         *           "status": "BACKEND_SENT",
                         *           "previous_status": "BACKEND_DELIVERED",
                         *           "ext_id": "wamid.HBgMOTA1NTUxMjM0NTY3",
                         *           "error_message": null,
                         *           "error_message_detail": null
                         *         }
                         *       }
                         *     }
                         */
                        "application/json": {
                            /** @enum {boolean} */
                            success: true;
                            /** @example  */
                            message: string;
                            /** @example 200 */
                            status_code: number;
                            /** @example 7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e */
                            trace_id: string;
                            /** @example [] */
                            errors: {
                                code: string;
                                message: string;
                                field?: string;
                            }[];
                            /**
                             * @example {
                             *       "id": "1042",
                             *       "event_id": "0b6f3f5e-4a36-4d5e-9a53-2f1f4f6b9a10",
                             *       "event_type": "message.status_changed",
                             *       "status": "DELIVERED",
                             *       "attempts": 2,
                             *       "next_attempt_at": null,
                             *       "last_attempt_at": "2026-11-23T16:05:12.300Z",
                             *       "last_status_code": 200,
                             *       "last_error": null,
                             *       "delivered_at": "2026-11-23T16:05:12.345Z",
                             *       "occurred_at": "2026-11-23T16:04:58.120Z",
                             *       "created_at": "2026-11-23T16:04:58.120Z",
                             *       "replay_of": null,
                             *       "data": {
                             *         "message_id": "6743a1f0a1b2c3d4e5f60799",
                             *         "send_wizard_id": null,
                             *         "row_no": null,
                             *         "channel_id": "110000000000001",
                             *         "phone_number": "905551234567",
                             *         "user_id": "TR.13491208655302741918",
                             *         "parent_user_id": null,
                             *         "username": null,
                             *         "status": "BACKEND_SENT",
                             *         "previous_status": "BACKEND_DELIVERED",
                             *         "ext_id": "wamid.HBgMOTA1NTUxMjM0NTY3",
                             *         "error_message": null,
                             *         "error_message_detail": null
                             *       }
                             *     }
                             */
                            data: {
                                /** @description delivery id (the X-TMS-Delivery-Id header) */
                                id: string;
                                /** @description the event id (X-TMS-Event-Id; the same on a replay) */
                                event_id: string;
                                event_type: string;
                                /** @description PENDING (to send or retrying), DELIVERED, FAILED (given up) */
                                status: "PENDING" | "DELIVERED" | "FAILED";
                                attempts: number;
                                next_attempt_at: string | null;
                                last_attempt_at: string | null;
                                last_status_code: number | null;
                                last_error: string | null;
                                delivered_at: string | null;
                                /** Format: date-time */
                                occurred_at: string;
                                /** Format: date-time */
                                created_at: string;
                                replay_of: string | null;
                                /** @description the event's data, as in the POSTed body (docs/webhooks-out.md) */
                                data: {
                                    message_id: string;
                                    send_wizard_id: string | null;
                                    row_no: number | null;
                                    channel_id: string;
                                    /** @description E.164; null for a message sent to a BSUID whose phone number is not known */
                                    phone_number: string | null;
                                    /** @description the recipient's BSUID, given with the send or reported by the network; null when unknown */
                                    user_id: string | null;
                                    /** @description the parent BSUID the network reported; null when none */
                                    parent_user_id: string | null;
                                    /** @description the recipient's WhatsApp username, when the network showed one */
                                    username: string | null;
                                    status: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                                    previous_status: "NONE" | "CANCELLED" | "QUEUED" | "AGENDA" | "OPT_IN_SUCCESS" | "OPT_IN_FAILED" | "OPT_IN_FAILED_INVALID_NUMBER" | "SENT_TO_BACKEND" | "SENT_TO_BACKEND_FAILED" | "BACKEND_DELIVERED" | "BACKEND_SEEN" | "BACKEND_SENT" | "BACKEND_FAILED" | "BACKEND_DELETED";
                                    ext_id: string | null;
                                    error_message: string | null;
                                    error_message_detail: string | null;
                                } | {
                                    send_wizard_id: string;
                                    channel_id: string;
                                    template_id: string;
                                    template_name: string;
                                    /** @description RUNNING, PAUSED, STOPPED, COMPLETED (and any status added later) */
                                    status: string;
                                    previous_status: string | null;
                                    paused_reason: string | null;
                                    counters: {
                                        summary: number;
                                        waiting: number;
                                        queued: number;
                                        processed_count: number;
                                        awaiting_backend_count: number;
                                        failed_count: number;
                                        delivered_count: number;
                                        sent_count: number;
                                        seen_count: number;
                                        cancelled_count: number;
                                        duplicate_count: number;
                                    };
                                };
                            };
                        };
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "4XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
                    };
                };
                /** @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path */
                "5XX": {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ErrorEnvelope"];
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path
         * @example {
         *       "success": false,
         *       "message": "channel_id is required",
         *       "status_code": 400,
         *       "trace_id": "7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e",
         *       "errors": [
         *         {
         *           "code": "VALIDATION_FAILED",
         *           "message": "channel_id is required",
         *           "field": "channel_id"
         *         }
         *       ]
         *     }
         */
        ErrorEnvelope: {
            /** @enum {boolean} */
            success: false;
            message: string;
            status_code: number;
            trace_id: string;
            errors: {
                code: string;
                message: string;
                field?: string;
            }[];
        };
        /** @description A template component as a create takes it: HEADER (TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION), BODY, FOOTER, BUTTONS or CAROUSEL; each kind at most once. Kinds, formats and button types are accepted in any case. Broken rules are answered 400 TEMPLATE_INVALID naming the path, e.g. components[1].buttons[0].url. */
        TemplateComponentInput: {
            /** @description HEADER (any case accepted) */
            type: "HEADER" | "header";
            /** @description TEXT (any case accepted) */
            format: "TEXT" | "text";
            /** @description at most one variable: {{1}} or {{name}} */
            text: string;
            example?: {
                /** @description positional samples (a named text takes its names in order of first appearance) */
                header_text?: string[];
                /** @description named samples */
                header_text_named_params?: {
                    /** @description the placeholder name, e.g. first_name for {{first_name}} */
                    param_name: string;
                    /** @description a sample value */
                    example: string;
                }[];
            };
        } | {
            /** @description HEADER (any case accepted) */
            type: "HEADER" | "header";
            format: ("IMAGE" | "image") | ("VIDEO" | "video") | ("DOCUMENT" | "document");
            example?: {
                /** @description the upload handle of a sample file (POST /api/v1/media answers it as file_handle); POST /api/v1/message-templates may send file_handle instead */
                header_handle: string[];
            };
        } | {
            /** @description HEADER (any case accepted) */
            type: "HEADER" | "header";
            /** @description LOCATION (any case accepted) */
            format: "LOCATION" | "location";
        } | {
            /** @description BODY (any case accepted) */
            type: "BODY" | "body";
            /** @description positional {{1}}, {{2}}… or named {{first_name}} variables (not both); at most 4 variables by default */
            text: string;
            example?: {
                /** @description one row of samples, one per variable (a named text: in order of first appearance of each name) */
                body_text?: string[][];
                /** @description named samples: each name once */
                body_text_named_params?: {
                    /** @description the placeholder name, e.g. first_name for {{first_name}} */
                    param_name: string;
                    /** @description a sample value */
                    example: string;
                }[];
            };
        } | {
            /** @description FOOTER (any case accepted) */
            type: "FOOTER" | "footer";
            /** @description no variables */
            text: string;
        } | {
            /** @description BUTTONS (any case accepted) */
            type: "BUTTONS" | "buttons";
            /** @description in display order; a send names a button by its 0-based index here */
            buttons: ({
                /** @description URL (any case accepted) */
                type: "URL" | "url";
                text: string;
                /** @description may end with one variable {{1}} (filled at send time) */
                url: string;
                /** @description a full sample URL when url has {{1}} */
                example?: string[];
            } | {
                /** @description PHONE_NUMBER (any case accepted) */
                type: "PHONE_NUMBER" | "phone_number";
                text: string;
                /** @description with country code */
                phone_number: string;
            } | {
                /** @description COPY_CODE (any case accepted) */
                type: "COPY_CODE" | "copy_code";
                /** @description a sample code (the code itself is a send parameter) */
                example?: string;
            } | {
                /** @description QUICK_REPLY (any case accepted) */
                type: "QUICK_REPLY" | "quick_reply";
                text: string;
            } | {
                /** @description REQUEST_CONTACT_INFO (any case accepted) */
                type: "REQUEST_CONTACT_INFO" | "request_contact_info";
            })[];
        } | {
            /** @description CAROUSEL (any case accepted) */
            type: "CAROUSEL" | "carousel";
            cards: {
                /** @description a media HEADER (IMAGE or VIDEO, with example.header_handle), an optional BODY and BUTTONS; every card has the same structure */
                components: ({
                    /** @description HEADER (any case accepted) */
                    type: "HEADER" | "header";
                    format: ("IMAGE" | "image") | ("VIDEO" | "video") | ("DOCUMENT" | "document");
                    example?: {
                        /** @description the upload handle of a sample file (POST /api/v1/media answers it as file_handle); POST /api/v1/message-templates may send file_handle instead */
                        header_handle: string[];
                    };
                } | {
                    /** @description BODY (any case accepted) */
                    type: "BODY" | "body";
                    /** @description positional {{1}}, {{2}}… or named {{first_name}} variables (not both); at most 4 variables by default */
                    text: string;
                    example?: {
                        /** @description one row of samples, one per variable (a named text: in order of first appearance of each name) */
                        body_text?: string[][];
                        /** @description named samples: each name once */
                        body_text_named_params?: {
                            /** @description the placeholder name, e.g. first_name for {{first_name}} */
                            param_name: string;
                            /** @description a sample value */
                            example: string;
                        }[];
                    };
                } | {
                    /** @description BUTTONS (any case accepted) */
                    type: "BUTTONS" | "buttons";
                    /** @description in display order; a send names a button by its 0-based index here */
                    buttons: ({
                        /** @description URL (any case accepted) */
                        type: "URL" | "url";
                        text: string;
                        /** @description may end with one variable {{1}} (filled at send time) */
                        url: string;
                        /** @description a full sample URL when url has {{1}} */
                        example?: string[];
                    } | {
                        /** @description PHONE_NUMBER (any case accepted) */
                        type: "PHONE_NUMBER" | "phone_number";
                        text: string;
                        /** @description with country code */
                        phone_number: string;
                    } | {
                        /** @description COPY_CODE (any case accepted) */
                        type: "COPY_CODE" | "copy_code";
                        /** @description a sample code (the code itself is a send parameter) */
                        example?: string;
                    } | {
                        /** @description QUICK_REPLY (any case accepted) */
                        type: "QUICK_REPLY" | "quick_reply";
                        text: string;
                    } | {
                        /** @description REQUEST_CONTACT_INFO (any case accepted) */
                        type: "REQUEST_CONTACT_INFO" | "request_contact_info";
                    })[];
                })[];
            }[];
        };
        /** @description A component of a stored template, in the network's create shape with upper-case kinds (unknown input keys are not kept). */
        TemplateComponent: {
            /** @enum {string} */
            type: "HEADER";
            /** @enum {string} */
            format: "TEXT";
            /** @description at most one variable: {{1}} or {{name}} */
            text: string;
            example?: {
                /** @description positional samples (a named text takes its names in order of first appearance) */
                header_text?: string[];
                /** @description named samples */
                header_text_named_params?: {
                    /** @description the placeholder name, e.g. first_name for {{first_name}} */
                    param_name: string;
                    /** @description a sample value */
                    example: string;
                }[];
            };
        } | {
            /** @enum {string} */
            type: "HEADER";
            format: "IMAGE" | "VIDEO" | "DOCUMENT";
            example?: {
                /** @description the upload handle of a sample file (POST /api/v1/media answers it as file_handle); POST /api/v1/message-templates may send file_handle instead */
                header_handle: string[];
            };
        } | {
            /** @enum {string} */
            type: "HEADER";
            /** @enum {string} */
            format: "LOCATION";
        } | {
            /** @enum {string} */
            type: "BODY";
            /** @description positional {{1}}, {{2}}… or named {{first_name}} variables (not both); at most 4 variables by default */
            text: string;
            example?: {
                /** @description one row of samples, one per variable (a named text: in order of first appearance of each name) */
                body_text?: string[][];
                /** @description named samples: each name once */
                body_text_named_params?: {
                    /** @description the placeholder name, e.g. first_name for {{first_name}} */
                    param_name: string;
                    /** @description a sample value */
                    example: string;
                }[];
            };
        } | {
            /** @enum {string} */
            type: "FOOTER";
            /** @description no variables */
            text: string;
        } | {
            /** @enum {string} */
            type: "BUTTONS";
            /** @description in display order; a send names a button by its 0-based index here */
            buttons: ({
                /** @enum {string} */
                type: "URL";
                text: string;
                /** @description may end with one variable {{1}} (filled at send time) */
                url: string;
                /** @description a full sample URL when url has {{1}} */
                example?: string[];
            } | {
                /** @enum {string} */
                type: "PHONE_NUMBER";
                text: string;
                /** @description with country code */
                phone_number: string;
            } | {
                /** @enum {string} */
                type: "COPY_CODE";
                /** @description a sample code (the code itself is a send parameter) */
                example?: string;
            } | {
                /** @enum {string} */
                type: "QUICK_REPLY";
                text: string;
            } | {
                /** @enum {string} */
                type: "REQUEST_CONTACT_INFO";
            })[];
        } | {
            /** @enum {string} */
            type: "CAROUSEL";
            cards: {
                /** @description a media HEADER (IMAGE or VIDEO, with example.header_handle), an optional BODY and BUTTONS; every card has the same structure */
                components: ({
                    /** @enum {string} */
                    type: "HEADER";
                    format: "IMAGE" | "VIDEO" | "DOCUMENT";
                    example?: {
                        /** @description the upload handle of a sample file (POST /api/v1/media answers it as file_handle); POST /api/v1/message-templates may send file_handle instead */
                        header_handle: string[];
                    };
                } | {
                    /** @enum {string} */
                    type: "BODY";
                    /** @description positional {{1}}, {{2}}… or named {{first_name}} variables (not both); at most 4 variables by default */
                    text: string;
                    example?: {
                        /** @description one row of samples, one per variable (a named text: in order of first appearance of each name) */
                        body_text?: string[][];
                        /** @description named samples: each name once */
                        body_text_named_params?: {
                            /** @description the placeholder name, e.g. first_name for {{first_name}} */
                            param_name: string;
                            /** @description a sample value */
                            example: string;
                        }[];
                    };
                } | {
                    /** @enum {string} */
                    type: "BUTTONS";
                    /** @description in display order; a send names a button by its 0-based index here */
                    buttons: ({
                        /** @enum {string} */
                        type: "URL";
                        text: string;
                        /** @description may end with one variable {{1}} (filled at send time) */
                        url: string;
                        /** @description a full sample URL when url has {{1}} */
                        example?: string[];
                    } | {
                        /** @enum {string} */
                        type: "PHONE_NUMBER";
                        text: string;
                        /** @description with country code */
                        phone_number: string;
                    } | {
                        /** @enum {string} */
                        type: "COPY_CODE";
                        /** @description a sample code (the code itself is a send parameter) */
                        example?: string;
                    } | {
                        /** @enum {string} */
                        type: "QUICK_REPLY";
                        text: string;
                    } | {
                        /** @enum {string} */
                        type: "REQUEST_CONTACT_INFO";
                    })[];
                })[];
            }[];
        };
        /** @description Parameters for one part of the template: header, body, a button (Cloud API form), buttons (service form) or carousel. Checked against the stored template: every variable needs its parameter; a mismatch is 400 PARAMETERS_INVALID naming the path, e.g. message_template[0].parameters[1]. See docs/send-parameters.md. */
        SendComponent: {
            /** @description header (any case accepted) */
            type: "header" | "HEADER";
            /** @description a TEXT header: one text parameter per variable; a media/location header: exactly one parameter of its format */
            parameters: ((string | {
                /** @description text (any case accepted) */
                type: "text" | "TEXT";
                /** @description no new lines, tabs or more than 4 spaces in a row; header ≤ 60, body ≤ 1,024 characters */
                text: string;
                /** @description required on every header/body parameter of a NAMED template ({{first_name}} → first_name), each name once, any order; refused on a positional template */
                parameter_name?: string;
            } | {
                /** @description currency (any case accepted) */
                type: "currency" | "CURRENCY";
                currency: {
                    fallback_value: string;
                    /** @description ISO 4217 */
                    code: string;
                    /** @description amount × 1000 */
                    amount_1000: number;
                };
                parameter_name?: string;
            } | {
                /** @description date_time (any case accepted) */
                type: "date_time" | "DATE_TIME";
                date_time: {
                    fallback_value: string;
                };
                parameter_name?: string;
            }) | {
                /** @description image (any case accepted) */
                type: "image" | "IMAGE";
                image: {
                    /** @description a media id at the network */
                    id?: string;
                    /** @description an http(s) URL; give id or link, not both */
                    link?: string;
                };
            } | {
                /** @description video (any case accepted) */
                type: "video" | "VIDEO";
                video: {
                    /** @description a media id at the network */
                    id?: string;
                    /** @description an http(s) URL; give id or link, not both */
                    link?: string;
                };
            } | {
                /** @description document (any case accepted) */
                type: "document" | "DOCUMENT";
                document: {
                    /** @description a media id at the network */
                    id?: string;
                    /** @description an http(s) URL; give id or link, not both */
                    link?: string;
                    filename?: string;
                };
            } | {
                /** @description location (any case accepted) */
                type: "location" | "LOCATION";
                location: {
                    latitude: number | string;
                    longitude: number | string;
                    name?: string;
                    address?: string;
                };
            })[];
        } | {
            /** @description body (any case accepted) */
            type: "body" | "BODY";
            /** @description one per variable; positional in order, named with parameter_name */
            parameters: (string | {
                /** @description text (any case accepted) */
                type: "text" | "TEXT";
                /** @description no new lines, tabs or more than 4 spaces in a row; header ≤ 60, body ≤ 1,024 characters */
                text: string;
                /** @description required on every header/body parameter of a NAMED template ({{first_name}} → first_name), each name once, any order; refused on a positional template */
                parameter_name?: string;
            } | {
                /** @description currency (any case accepted) */
                type: "currency" | "CURRENCY";
                currency: {
                    fallback_value: string;
                    /** @description ISO 4217 */
                    code: string;
                    /** @description amount × 1000 */
                    amount_1000: number;
                };
                parameter_name?: string;
            } | {
                /** @description date_time (any case accepted) */
                type: "date_time" | "DATE_TIME";
                date_time: {
                    fallback_value: string;
                };
                parameter_name?: string;
            })[];
        } | {
            /** @description button (any case accepted) */
            type: "button" | "BUTTON";
            /** @description must match the template's button at index when given */
            sub_type?: "url" | "copy_code" | "quick_reply" | "phone_number";
            /** @description 0-based position in the template's BUTTONS */
            index: number | string;
            /** @description URL (with {{1}}) and COPY_CODE buttons: exactly 1; QUICK_REPLY: 0 or 1 payload; PHONE_NUMBER: none */
            parameters: (string | {
                /** @description text (any case accepted) */
                type: "text" | "TEXT";
                text: string;
            } | {
                /** @description coupon_code (any case accepted) */
                type: "coupon_code" | "COUPON_CODE";
                coupon_code: string;
            } | {
                /** @description payload (any case accepted) */
                type: "payload" | "PAYLOAD";
                payload: string;
            })[];
        } | {
            /** @description buttons (any case accepted) */
            type: "buttons" | "BUTTONS";
            buttons: {
                /** @description 0-based position in the template's BUTTONS */
                index?: number | string;
                /** @description must match the template's button at index when given */
                sub_type?: "url" | "copy_code" | "quick_reply" | "phone_number";
                /** @description URL (with {{1}}) and COPY_CODE buttons: exactly 1; QUICK_REPLY: 0 or 1 payload; PHONE_NUMBER: none */
                parameters: (string | {
                    /** @description text (any case accepted) */
                    type: "text" | "TEXT";
                    text: string;
                } | {
                    /** @description coupon_code (any case accepted) */
                    type: "coupon_code" | "COUPON_CODE";
                    coupon_code: string;
                } | {
                    /** @description payload (any case accepted) */
                    type: "payload" | "PAYLOAD";
                    payload: string;
                })[];
            }[];
        } | {
            /** @description carousel (any case accepted) */
            type: "carousel" | "CAROUSEL";
            /** @description one entry per card of the template */
            cards: {
                /** @description 0-based; a card without it is the card at its position */
                card_index?: number | string;
                /** @description the card's header (media), body and button parameters */
                components: ({
                    /** @description header (any case accepted) */
                    type: "header" | "HEADER";
                    /** @description a TEXT header: one text parameter per variable; a media/location header: exactly one parameter of its format */
                    parameters: ((string | {
                        /** @description text (any case accepted) */
                        type: "text" | "TEXT";
                        /** @description no new lines, tabs or more than 4 spaces in a row; header ≤ 60, body ≤ 1,024 characters */
                        text: string;
                        /** @description required on every header/body parameter of a NAMED template ({{first_name}} → first_name), each name once, any order; refused on a positional template */
                        parameter_name?: string;
                    } | {
                        /** @description currency (any case accepted) */
                        type: "currency" | "CURRENCY";
                        currency: {
                            fallback_value: string;
                            /** @description ISO 4217 */
                            code: string;
                            /** @description amount × 1000 */
                            amount_1000: number;
                        };
                        parameter_name?: string;
                    } | {
                        /** @description date_time (any case accepted) */
                        type: "date_time" | "DATE_TIME";
                        date_time: {
                            fallback_value: string;
                        };
                        parameter_name?: string;
                    }) | {
                        /** @description image (any case accepted) */
                        type: "image" | "IMAGE";
                        image: {
                            /** @description a media id at the network */
                            id?: string;
                            /** @description an http(s) URL; give id or link, not both */
                            link?: string;
                        };
                    } | {
                        /** @description video (any case accepted) */
                        type: "video" | "VIDEO";
                        video: {
                            /** @description a media id at the network */
                            id?: string;
                            /** @description an http(s) URL; give id or link, not both */
                            link?: string;
                        };
                    } | {
                        /** @description document (any case accepted) */
                        type: "document" | "DOCUMENT";
                        document: {
                            /** @description a media id at the network */
                            id?: string;
                            /** @description an http(s) URL; give id or link, not both */
                            link?: string;
                            filename?: string;
                        };
                    } | {
                        /** @description location (any case accepted) */
                        type: "location" | "LOCATION";
                        location: {
                            latitude: number | string;
                            longitude: number | string;
                            name?: string;
                            address?: string;
                        };
                    })[];
                } | {
                    /** @description body (any case accepted) */
                    type: "body" | "BODY";
                    /** @description one per variable; positional in order, named with parameter_name */
                    parameters: (string | {
                        /** @description text (any case accepted) */
                        type: "text" | "TEXT";
                        /** @description no new lines, tabs or more than 4 spaces in a row; header ≤ 60, body ≤ 1,024 characters */
                        text: string;
                        /** @description required on every header/body parameter of a NAMED template ({{first_name}} → first_name), each name once, any order; refused on a positional template */
                        parameter_name?: string;
                    } | {
                        /** @description currency (any case accepted) */
                        type: "currency" | "CURRENCY";
                        currency: {
                            fallback_value: string;
                            /** @description ISO 4217 */
                            code: string;
                            /** @description amount × 1000 */
                            amount_1000: number;
                        };
                        parameter_name?: string;
                    } | {
                        /** @description date_time (any case accepted) */
                        type: "date_time" | "DATE_TIME";
                        date_time: {
                            fallback_value: string;
                        };
                        parameter_name?: string;
                    })[];
                } | {
                    /** @description button (any case accepted) */
                    type: "button" | "BUTTON";
                    /** @description must match the template's button at index when given */
                    sub_type?: "url" | "copy_code" | "quick_reply" | "phone_number";
                    /** @description 0-based position in the template's BUTTONS */
                    index: number | string;
                    /** @description URL (with {{1}}) and COPY_CODE buttons: exactly 1; QUICK_REPLY: 0 or 1 payload; PHONE_NUMBER: none */
                    parameters: (string | {
                        /** @description text (any case accepted) */
                        type: "text" | "TEXT";
                        text: string;
                    } | {
                        /** @description coupon_code (any case accepted) */
                        type: "coupon_code" | "COUPON_CODE";
                        coupon_code: string;
                    } | {
                        /** @description payload (any case accepted) */
                        type: "payload" | "PAYLOAD";
                        payload: string;
                    })[];
                } | {
                    /** @description buttons (any case accepted) */
                    type: "buttons" | "BUTTONS";
                    buttons: {
                        /** @description 0-based position in the template's BUTTONS */
                        index?: number | string;
                        /** @description must match the template's button at index when given */
                        sub_type?: "url" | "copy_code" | "quick_reply" | "phone_number";
                        /** @description URL (with {{1}}) and COPY_CODE buttons: exactly 1; QUICK_REPLY: 0 or 1 payload; PHONE_NUMBER: none */
                        parameters: (string | {
                            /** @description text (any case accepted) */
                            type: "text" | "TEXT";
                            text: string;
                        } | {
                            /** @description coupon_code (any case accepted) */
                            type: "coupon_code" | "COUPON_CODE";
                            coupon_code: string;
                        } | {
                            /** @description payload (any case accepted) */
                            type: "payload" | "PAYLOAD";
                            payload: string;
                        })[];
                    }[];
                })[];
            }[];
        };
        /** @description The status payload from the network that set the current state; null until the first status event (its shape is the network's) */
        WebhookResponse: {
            /** @description the message id at the network (ext_id) */
            id: string;
            /** @description sent, delivered, read or failed */
            status: string;
            /** @description Unix seconds */
            timestamp: string;
            recipient_id: string;
            /** @description the service's message id */
            biz_opaque_callback_data?: string;
            conversation?: {
                id: string;
                origin?: {
                    type: string;
                };
            };
            pricing?: {
                billable: boolean;
                pricing_model: string;
                category: string;
            };
            errors?: {
                /** @example 131049 */
                code: number;
                title: string;
                message?: string;
                error_data?: {
                    details: string;
                };
            }[];
        } | null;
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
