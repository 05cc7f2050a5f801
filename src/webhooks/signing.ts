import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A Standard Webhooks signing secret: `whsec_` and 32 random bytes in base64. */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The three Standard Webhooks headers for one attempt; the timestamp is the attempt's, so each retry is signed anew. */
export function signedHeaders(secret: string, messageId: string, at: number, body: string): Record<string, string> {
  const timestamp = new Date(at);
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, timestamp, body),
  };
}
