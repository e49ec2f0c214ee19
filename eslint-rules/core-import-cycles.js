// A lint rule for issue 12: no import circle inside packages/core (and faults/src, issue 30). The graph is read once per
// lint process with TypeScript's pre-processor (imports only, no parse of bodies). Type-only imports count, as in packages/core/src/architecture/import-cycles.test.ts:
// they still tie two concepts together. A circle is reported on every file in it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const IS_TEST = /\.(integration\.)?test\.ts$/;

function listSourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSourceFiles(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !IS_TEST.test(full)) {
      out.push(full);
    }
  }
  return out;
}

function resolveRelative(from, specifier, known) {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ""));
  for (const candidate of [base, `${base}.ts`, path.join(base, "index.ts")]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

/** Tarjan's strongly connected components of more than one file. */
function importCycles(graph) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (node) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return components;
}

const cache = new Map();
/**
 * How long a graph is trusted without looking at the files again. Re-listing and stat-ing ~400
 * files for each linted file cost 14 s over a full `eslint .`; once per 2 s costs well under one,
 * and an editor still sees a new circle within 2 s of saving.
 */
const RECHECK_MS = 2_000;

/** File -> the circle it is in, for the core rooted at `root`; rebuilt when a file changed. */
function circlesOf(root) {
  const now = Date.now();
  const cached = cache.get(root);
  if (cached !== undefined && now - cached.checkedAt < RECHECK_MS) return cached.byFile;
  const files = listSourceFiles(root);
  const stamp = files.map((file) => `${file}:${statSync(file).mtimeMs}`).join("|");
  if (cached?.stamp === stamp) {
    cached.checkedAt = now;
    return cached.byFile;
  }
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const resolved = resolveRelative(file, fileName, known);
      if (resolved !== undefined) targets.add(resolved);
    }
    graph.set(file, [...targets]);
  }
  const byFile = new Map();
  for (const component of importCycles(graph)) {
    for (const file of component) byFile.set(file, component);
  }
  cache.set(root, { stamp, byFile, checkedAt: now });
  return byFile;
}

/** The source trees kept free of circles: core, and the fault suite's harness and checker. */
const CHECKED_ROOTS = [
  `${path.sep}packages${path.sep}core${path.sep}src${path.sep}`,
  `${path.sep}faults${path.sep}src${path.sep}`,
];

export const coreImportCycles = {
  meta: {
    type: "problem",
    docs: { description: "No import circle inside packages/core or faults/src (issues 12, 30)." },
    schema: [],
    messages: {
      circle:
        "This file is in an import circle ({{files}}). Move the shared piece " +
        "to a third, lower file (CONVENTIONS.md: No cycles).",
    },
  },
  create(context) {
    const file = context.filename;
    const root = CHECKED_ROOTS.map((marker) => {
      const at = file.indexOf(marker);
      return at < 0 ? undefined : file.slice(0, at + marker.length - 1);
    }).find((found) => found !== undefined);
    if (root === undefined || IS_TEST.test(file)) return {};
    return {
      Program(node) {
        const circle = circlesOf(root).get(file);
        if (circle === undefined) return;
        const files = circle.map((member) => path.relative(root, member)).join(" -> ");
        context.report({ node, messageId: "circle", data: { files } });
      },
    };
  },
};

export default { rules: { "core-import-cycles": coreImportCycles } };
