// Emits a package's type declarations with tsc (`tsconfig.build.json` in the working directory)
// and gives their relative imports the `.js` paths Node's resolution needs, for consumers whose
// tsconfig uses `NodeNext`. The sources import without extensions (`Bundler` resolution), which
// tsc copies unchanged into the .d.ts files. tsc rather than tsup's bundled declarations: for
// @cyclium/core those took ~55 s of CPU and 1.6 GB against ~15 s here (2-core machine).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
execFileSync(
  process.execPath,
  [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"],
  {
    stdio: "inherit",
  },
);

const outDir = path.resolve(process.argv[2] ?? "dist");
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"']*)\2/g;

function withExtension(file, specifier) {
  if (/\.(m|c)?js$/.test(specifier)) return specifier;
  const target = path.resolve(path.dirname(file), specifier);
  if (fs.existsSync(`${target}.d.ts`)) return `${specifier}.js`;
  if (fs.existsSync(path.join(target, "index.d.ts"))) return `${specifier}/index.js`;
  throw new Error(`${file}: cannot resolve "${specifier}"`);
}

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith(".d.ts")) {
      const text = fs.readFileSync(full, "utf8");
      const rewritten = text.replace(
        SPECIFIER,
        (_all, keyword, quote, specifier) =>
          `${keyword}${quote}${withExtension(full, specifier)}${quote}`,
      );
      if (rewritten !== text) fs.writeFileSync(full, rewritten);
    }
  }
}
walk(outDir);
