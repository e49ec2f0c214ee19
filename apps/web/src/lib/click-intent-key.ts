/**
 * An idempotency key for one click intent: generated when the operator starts an action (opens
 * the fire dialog, presses a button the first time) and reused by every request of that intent,
 * so a double click or a retried request creates one episode (dedupe key
 * `manual:{actor}:{expectation}:{key}`).
 */
export function newClickIntentKey(): string {
  return crypto.randomUUID().replaceAll("-", "");
}
