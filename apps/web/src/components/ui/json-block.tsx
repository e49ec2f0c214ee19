/** Episode input, results, contexts: pretty JSON, scrollable, never wider than the page. */
export function JsonBlock({ value, empty = "—" }: { value: unknown; empty?: string }) {
  if (value === null || value === undefined) return <div className="text-subtle">{empty}</div>;
  const text = JSON.stringify(value, null, 2);
  if (text === "{}" || text === "[]") return <div className="text-subtle">{text} (empty)</div>;
  return <pre className="json-block">{text}</pre>;
}
