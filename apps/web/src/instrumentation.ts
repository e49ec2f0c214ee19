// Next.js calls register() once when a server instance starts, before it serves requests:
// the one place to validate configuration eagerly (SPEC section 9: name the bad variable,
// exit code 2), and where the console's own Cyclium node starts (trigger_only, SPEC section 1).
export async function register(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- Next inlines NEXT_RUNTIME at build time; the literal check lets the edge bundle drop the Node-only import below.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // First, before any request: the socket address is the only client address a client cannot
  // forge (server/auth/client-address.ts).
  const { installPeerAddressHeader } = await import("./server/auth/peer-address");
  installPeerAddressHeader();
  const { assertWebEnvOrExit } = await import("./server/startup-env-check");
  const env = assertWebEnvOrExit();
  // `next build` also loads instrumentation while it prerenders; a node must not start there.
  if (env.NEXT_PHASE === "phase-production-build") return;
  // Before the node: the console's fires are the roots of the episodes' traces.
  const { startTracing } = await import("./server/tracing");
  startTracing(env);
  const { startConsoleNode } = await import("./server/runtime/start-console-node");
  // Not awaited: the node retries on its own while the database is unreachable, and the pages
  // must be served meanwhile.
  void startConsoleNode();
}
