/** Detail links keep the env being inspected (`?env=` as the URL has it). */
export function withEnvParam(href: string, envParam: string | null): string {
  return envParam === null ? href : `${href}?env=${encodeURIComponent(envParam)}`;
}
