// The Next.js route files under src/app/api/v1, read from disk: each one's URL template in the
// OpenAPI document's spelling (`[t]` -> `{t}`) and the methods it serves (an exported handler;
// `otherMethod as PUT`, the 405 answers, is not one). The contract test compares them with the
// document, and dispatches requests to them the way Next.js does.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const API_V1_DIR = fileURLToPath(new URL("../../../../app/api/v1/", import.meta.url));

export interface TRouteFile {
  /** Absolute path of `route.ts`. */
  file: string;
  /** `/api/v1/tenants/{t}/actors`; a catch-all's ends in `{...path}`. */
  template: string;
  catchAll: boolean;
  /** Upper-case methods with a handler of their own. */
  methods: string[];
  pattern: RegExp;
  paramNames: string[];
}

const SERVED = /export\s+(?:const|async function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g;

export function listRouteFiles(): TRouteFile[] {
  const routes: TRouteFile[] = [];
  walk(API_V1_DIR, (file) => {
    const segments = relative(API_V1_DIR, file).split(sep).slice(0, -1);
    const paramNames: string[] = [];
    let catchAll = false;
    const parts = segments.map((segment) => {
      const rest = /^\[\.\.\.(\w+)\]$/.exec(segment);
      if (rest) {
        catchAll = true;
        paramNames.push(rest[1]!);
        return { template: `{...${rest[1]}}`, pattern: "(.+)" };
      }
      const param = /^\[(\w+)\]$/.exec(segment);
      if (param) {
        paramNames.push(param[1]!);
        return { template: `{${param[1]}}`, pattern: "([^/]+)" };
      }
      return { template: segment, pattern: segment.replaceAll(".", "\\.") };
    });
    const methods = [...readFileSync(file, "utf8").matchAll(SERVED)].map((match) => match[1]!);
    routes.push({
      file,
      template: ["/api/v1", ...parts.map((part) => part.template)].join("/"),
      catchAll,
      methods,
      pattern: new RegExp(`^${["/api/v1", ...parts.map((part) => part.pattern)].join("/")}$`),
      paramNames,
    });
  });
  // Like Next.js: a catch-all only answers what no other route does.
  return routes.sort((a, b) => Number(a.catchAll) - Number(b.catchAll));
}

function walk(dir: string, found: (file: string) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, found);
    else if (entry.name === "route.ts") found(path);
  }
}
