/**
 * The item every system carries: `{"n":<number>,"pad":"..."}`, padded so the JSON is about
 * 100 bytes whatever the number of digits.
 */
export const PAYLOAD_BYTES = 100;

export function payloadOf(n: number): { n: number; pad: string } {
  const bare = JSON.stringify({ n, pad: "" }).length;
  return { n, pad: "x".repeat(Math.max(0, PAYLOAD_BYTES - bare)) };
}
