import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { listCoreFiles, runtimeImportGraph } from "./core-modules";

// Issue 30: a worker loads what runs work, not the console's read side. Walked from the entry
// points a worker's main.ts imports (`@cyclium/core` and `@cyclium/core/worker`), type imports
// included, the graph holds no module of the console's wing and no package only the console
// needs: argon2 (apps/web hashes passwords) and zxcvbn (the password rule, 1.9 MB).
const root = fileURLToPath(new URL("..", import.meta.url));
const packageJson = path.join(root, "../package.json");

/** The console's wing: its read models, sign-in (auth/), users and audit, all under console/. */
const CONSOLE_FOLDERS = ["console"];
const CONSOLE_PACKAGES = ["@node-rs/argon2", "@zxcvbn-ts/core", "@zxcvbn-ts/language-common"];

function reachable(graph: Map<string, string[]>, entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...(graph.get(file) ?? []));
  }
  return seen;
}

/** The packages a file imports (bare specifiers, type imports included). */
function packagesImported(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2023);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    const specifier =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) &&
            node.expression.kind === ts.SyntaxKind.ImportKeyword &&
            node.arguments[0] !== undefined &&
            ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : undefined;
    if (specifier !== undefined && !specifier.startsWith(".")) out.push(specifier);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function workerModules(): string[] {
  const graph = runtimeImportGraph(listCoreFiles(root), { withTypeImports: true });
  const entries = [path.join(root, "index.ts"), path.join(root, "worker/index.ts")];
  return [...reachable(graph, entries)].sort();
}

/** What the console's faces load at run time (type imports vanish from its bundle). */
function consoleModules(): string[] {
  const graph = runtimeImportGraph(listCoreFiles(root));
  const entries = [path.join(root, "console/index.ts"), path.join(root, "console/browser.ts")];
  return [...reachable(graph, entries)].map((file) => path.relative(root, file));
}

describe("a worker's import graph (runWorker from @cyclium/core/worker)", () => {
  it("reaches no module of the console's wing", () => {
    const modules = workerModules();
    const consoleModules = modules
      .map((file) => path.relative(root, file))
      .filter((file) => CONSOLE_FOLDERS.includes(file.split(path.sep)[0] ?? ""));
    expect(consoleModules).toEqual([]);
    // and the walk is real: it reaches the run loop and the node.
    expect(modules).toContain(path.join(root, "worker/run-worker.ts"));
    expect(modules.length).toBeGreaterThan(100);
  });

  it("imports neither argon2 nor the password rule's dictionaries", () => {
    const imported = new Set(workerModules().flatMap(packagesImported));
    expect(CONSOLE_PACKAGES.filter((name) => imported.has(name))).toEqual([]);
    // and core does not install argon2 for anyone.
    const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain("@node-rs/argon2");
  });

  it("is not loaded by the console: its faces reach neither worker/ nor the root", () => {
    // runWorker's start-up brings embedded PostgreSQL's platform packages into the console's
    // Next.js build, which cannot resolve them (release-pack failed so).
    const modules = consoleModules();
    expect(modules.filter((file) => file.startsWith("worker/") || file === "index.ts")).toEqual([]);
    expect(modules).toContain(path.join("console", "episodes", "list-episodes.ts"));
  });
});
