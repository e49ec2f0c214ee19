/**
 * Exactly-once from the handlers' side: every item executed once across all processes. With
 * `count` undefined (a windowed drain) only duplicates are problems.
 */
export function checkExecuted(executed: readonly number[], count: number | undefined): string[] {
  const seen = new Map<number, number>();
  for (const item of executed) seen.set(item, (seen.get(item) ?? 0) + 1);
  const problems: string[] = [];
  const twice = [...seen].filter(([, n]) => n > 1).map(([item]) => item);
  if (twice.length > 0) {
    problems.push(
      `${twice.length} items executed more than once (e.g. ${twice.slice(0, 5).join(", ")})`,
    );
  }
  if (count !== undefined) {
    const missing = count - [...seen.keys()].filter((item) => item >= 0 && item < count).length;
    if (missing > 0) problems.push(`${missing} items never executed`);
  }
  return problems;
}
