/**
 * Rules about a node that lower folders check without reaching up into nodes/ (which wires every
 * concept together): the length of its identity and how long a silent node still counts as live.
 */

/** `cyclium_work_claims.owner_node` and every other identity column are VARCHAR(255). */
export const MAX_NODE_IDENTITY_LENGTH = 255;

/** Three missed 5-second heartbeats before a node counts as gone. */
export const DEFAULT_LIVE_WITHIN_MS = 15_000;
