import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signatures, the Standard Webhooks scheme (standardwebhooks.com): an HMAC-SHA256 over
 * `<webhook-id>.<webhook-timestamp>.<body>` with the secret's key bytes, sent as
 * `webhook-signature: v1,<base64>`. Any Standard Webhooks library verifies our deliveries;
 * the client's verifyWebhook is one.
 */

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 24;

/** A new signing secret: `whsec_` and 24 random bytes in base64. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The value of the `webhook-signature` header for one attempt. */
export function signWebhook(
  secret: string,
  deliveryId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key)
    .update(`${deliveryId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${signature}`;
}
