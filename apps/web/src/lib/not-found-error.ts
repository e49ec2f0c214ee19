/**
 * A tRPC NOT_FOUND (an unknown trigger, an id that names nothing): an answer, not a failure.
 * Retrying it cannot help, and the page shows the not-found page instead of "keeps retrying".
 * Read structurally so the browser bundle needs no tRPC import here.
 */
export function isNotFoundError(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("data" in error)) return false;
  const data = (error as { data?: unknown }).data;
  return (
    typeof data === "object" && data !== null && (data as { code?: unknown }).code === "NOT_FOUND"
  );
}
