// docs/openapi.json and the typed client's types are generated from the zod schemas; a change to
// a schema, an operation or the builder without regenerating them fails here.
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { renderOpenApiFiles, WRITE_COMMAND } from "./openapi-files";

describe("generated OpenAPI files", async () => {
  const files = await renderOpenApiFiles();
  it.each(files.map((file) => [relative(process.cwd(), file.path), file] as const))(
    "%s is up to date",
    (_name, file) => {
      let current: string;
      try {
        current = readFileSync(file.path, "utf8");
      } catch {
        current = "(missing)";
      }
      expect(
        current === file.content,
        `${file.path} is stale: regenerate it with \`${WRITE_COMMAND}\` and commit it.`,
      ).toBe(true);
    },
  );
});
