import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatPublicApi, readExportEntries, readPublicApi } from "./public-api";

// Issue 30: what a team may rely on is what package.json's `exports` lists, and every name those
// entry points export is in api-report.md, reviewed. Adding, removing or re-typing an export
// fails here until the report is written anew (`pnpm --filter @cyclium/core api:report`, which
// runs this file with `-u`) and the difference is read in review.
const packageDir = fileURLToPath(new URL("../..", import.meta.url));

describe("@cyclium/core public API", () => {
  it("has no wildcard entry point", () => {
    const subpaths = [...readExportEntries(packageDir).keys()];
    expect(subpaths.filter((subpath) => subpath.includes("*"))).toEqual([]);
  });

  it("matches api-report.md", async () => {
    const report = formatPublicApi(readPublicApi(readExportEntries(packageDir)));
    await expect(report).toMatchFileSnapshot("../../api-report.md");
  });
});
