// Next.js calls register() once when a server instance starts, before it serves requests:
// the one place to validate configuration eagerly (SPEC section 9: name the bad variable,
// exit code 2).
export async function register(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- Next inlines NEXT_RUNTIME at build time; the literal check lets the edge bundle drop the Node-only import below.
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertWebEnvOrExit } = await import("./server/startup-env-check");
  assertWebEnvOrExit();
}
