/**
 * Ends an exhaustive `switch` over a union: adding a member without handling it becomes a
 * compile error, and a value that slips past the types (bad row, old peer) fails loudly.
 */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
