import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { WEBHOOK_EVENTS } from '../store/types.js';

/** The `webhooks` of an OpenAPI 3.1 document, as @fastify/swagger types it. */
type OpenApiWebhooks = NonNullable<
  Extract<NonNullable<FastifyDynamicSwaggerOptions['openapi']>, { webhooks?: unknown }>['webhooks']
>;

const ITEM_REF = { $ref: '#/components/schemas/InventoryItem' };
const TIMESTAMP = {
  type: 'string' as const,
  format: 'date-time',
  examples: ['2026-11-24T21:00:00.120Z'],
};
const ID = { type: 'string' as const, pattern: '^[0-9a-f]{24}$' };

const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header' as const,
  required: true,
  description,
  schema: { type: 'string' as const },
  example,
});

/**
 * The OpenAPI 3.1 `webhooks` entry: what Stockroom POSTs to a webhook's URL (docs/en/webhooks.mdx),
 * so that generators and readers of the API document see the payload and its headers.
 */
export const OPENAPI_WEBHOOKS: OpenApiWebhooks = {
  itemChanges: {
    post: {
      summary: 'Item changes of an organization (a webhook delivery)',
      description:
        'Sent to the URL of each webhook (`stockroom webhook create`) after items of its organization change: up to 100 events in change order, coalesced (an item appears once, in its latest state). Signed with the Standard Webhooks scheme: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<raw body>` with the webhook secret (the client library’s `verifyWebhook` does it). Answer with any 2xx within 10 seconds; anything else is retried with backoff. Deliveries can repeat: deduplicate on `webhook-id`.',
      parameters: [
        header(
          'webhook-id',
          'The delivery id; the same on every retry of the delivery.',
          '6743a1f2c3d4e5f6a7b8c9d0',
        ),
        header('webhook-timestamp', 'Unix seconds when this attempt was sent.', '1732482000'),
        header(
          'webhook-signature',
          '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes of the secret after `whsec_`.',
          'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
        ),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['id', 'webhookId', 'organizationId', 'createdAt', 'events'],
              properties: {
                id: { ...ID, description: 'The delivery id (as in `webhook-id`).' },
                webhookId: ID,
                organizationId: ID,
                createdAt: TIMESTAMP,
                events: {
                  type: 'array',
                  minItems: 1,
                  maxItems: 100,
                  items: {
                    type: 'object',
                    required: ['type', 'occurredAt', 'item'],
                    properties: {
                      type: {
                        type: 'string',
                        enum: [...WEBHOOK_EVENTS],
                        description:
                          '`item.created`: a new item (never sent to this webhook before; during a backlog an item changed again may come as `item.created` twice); `item.updated`: an item sent before (or older than the webhook) changed; `item.deleted`: it was deleted (the item then holds only `_id`).',
                      },
                      occurredAt: {
                        ...TIMESTAMP,
                        description: 'The item’s updatedAt, or the time of the deletion.',
                      },
                      item: {
                        oneOf: [
                          ITEM_REF,
                          { type: 'object', required: ['_id'], properties: { _id: ID } },
                        ],
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        '2XX': { description: 'Received. Any other answer, or none within 10 s, is retried.' },
      },
    },
  },
};
