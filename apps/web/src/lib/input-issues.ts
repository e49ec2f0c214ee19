import { TRPCClientError } from "@trpc/client";

/**
 * The field issues the server sent with a refused input (`data.inputIssues`: the expectation's
 * zod check of a fire or a retry with edited input), or null for any other error.
 */
export function inputIssuesOf(error: unknown): { path: string; message: string }[] | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data: unknown = error.data;
  if (typeof data !== "object" || data === null || !("inputIssues" in data)) return null;
  const issues = data.inputIssues;
  if (!Array.isArray(issues)) return null;
  return issues.flatMap((issue: unknown) => {
    if (typeof issue !== "object" || issue === null) return [];
    const { path, message } = issue as Record<string, unknown>;
    return typeof path === "string" && typeof message === "string" ? [{ path, message }] : [];
  });
}
