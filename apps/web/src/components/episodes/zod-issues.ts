/** One zod issue as the console shows it. */
export interface TReadableIssue {
  path: string;
  message: string;
}

/**
 * The issues of a ZodError stored as an episode's error message (zod 4's message is the issues
 * as JSON, after the runner's "init failed: " prefix), as `path: message` lines; null when the
 * message is not such a list, so the caller shows it as it is.
 */
export function readZodIssues(message: string | null | undefined): TReadableIssue[] | null {
  if (!message) return null;
  const start = message.indexOf("[");
  if (start < 0) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.slice(start));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  const issues: TReadableIssue[] = [];
  for (const issue of parsed) {
    if (typeof issue !== "object" || issue === null) return null;
    const { path, message: text } = issue as Record<string, unknown>;
    if (typeof text !== "string" || !Array.isArray(path)) return null;
    issues.push({ path: path.map(String).join("."), message: text });
  }
  return issues;
}
