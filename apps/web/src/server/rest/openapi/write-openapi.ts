// `pnpm --filter @cyclium/web openapi:write`: regenerates docs/openapi.json and the typed
// client's types from the zod schemas; commit both.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { renderOpenApiFiles } from "./openapi-files";

for (const file of await renderOpenApiFiles()) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.content);
  console.log(`wrote ${file.path}`);
}
