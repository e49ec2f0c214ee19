import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/**
 * The source of packages/core read with the TypeScript compiler (no emit): its files, the
 * imports between them and the names its modules export. Used by the architecture tests
 * (no import cycles, no duplicate exported names) and runnable on another checkout of the tree.
 */
export interface CoreModules {
  root: string;
  files: string[];
  program: ts.Program;
}

const IS_TEST = /\.(integration\.)?test\.ts$/;

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  noEmit: true,
  skipLibCheck: true,
  // Names and imports only: no lib.d.ts, no @types.
  noLib: true,
  types: [],
};

/** Core's source files, tests left out. */
export function listCoreFiles(root: string): string[] {
  return listSourceFiles(root).filter((file) => !IS_TEST.test(file));
}

/** A program over core's files, for questions that need the type checker. */
export function loadCoreModules(root: string): CoreModules {
  const files = listCoreFiles(root);
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  // Only core's own files: a package (zod, pg) is left unresolved, which changes no name core
  // declares and keeps the check to a few seconds instead of type-loading node_modules.
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) =>
      literal.text.startsWith(".")
        ? ts.resolveModuleName(literal.text, containingFile, COMPILER_OPTIONS, host)
        : { resolvedModule: undefined },
    );
  return { root, files, program: ts.createProgram(files, COMPILER_OPTIONS, host) };
}

/** Core's source files, tests included. */
export function listCoreFilesWithTests(root: string): string[] {
  return listSourceFiles(root);
}

/**
 * Arrows between core's folders (first path segment under its root): `from>to` with the files
 * that make each. Test support is left out: tests, files under a `testing/` folder and fixtures
 * only tests import assemble real pieces from every floor, as tests do.
 */
export function folderArrows(root: string): Map<string, string[]> {
  const withTests = runtimeImportGraph(listCoreFilesWithTests(root), { withTypeImports: true });
  const importedBy = new Map<string, string[]>();
  for (const [file, targets] of withTests) {
    for (const target of targets) importedBy.set(target, [...(importedBy.get(target) ?? []), file]);
  }
  const isTestSupport = (file: string): boolean => {
    if (IS_TEST.test(file) || file.split(path.sep).includes("testing")) return true;
    const importers = importedBy.get(file) ?? [];
    return importers.length > 0 && importers.every((importer) => IS_TEST.test(importer));
  };
  const folderOf = (file: string): string => path.relative(root, file).split(path.sep)[0] ?? "";
  const arrows = new Map<string, string[]>();
  for (const [file, targets] of withTests) {
    if (isTestSupport(file)) continue;
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === to || from.endsWith(".ts") || to.endsWith(".ts")) continue;
      const key = `${from}>${to}`;
      arrows.set(key, [
        ...(arrows.get(key) ?? []),
        `${path.relative(root, file)} -> ${path.relative(root, target)}`,
      ]);
    }
  }
  return arrows;
}

/** The folders that import each other, each pair once, with the files that make both arrows. */
export function mutualFolderImports(root: string): { pair: [string, string]; why: string[] }[] {
  const arrows = folderArrows(root);
  const pairs: { pair: [string, string]; why: string[] }[] = [];
  for (const [key, why] of arrows) {
    const [from = "", to = ""] = key.split(">");
    const back = arrows.get(`${to}>${from}`);
    if (from < to && back !== undefined) pairs.push({ pair: [from, to], why: [...why, ...back] });
  }
  return pairs.sort((a, b) => a.pair.join().localeCompare(b.pair.join()));
}

/** Circles of folders of any length (a pair is the shortest), each as its folders, sorted. */
export function folderCycles(root: string): string[][] {
  const graph = new Map<string, string[]>();
  for (const key of folderArrows(root).keys()) {
    const [from = "", to = ""] = key.split(">");
    graph.set(from, [...(graph.get(from) ?? []), to]);
    if (!graph.has(to)) graph.set(to, []);
  }
  return importCycles(graph);
}

function listSourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSourceFiles(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out.sort();
}

/**
 * Runtime imports between core's files (`import type` and `export type` left out: they vanish
 * at run time and cannot make a module see another one half-initialised).
 */
export function runtimeImportGraph(
  files: readonly string[],
  options: { withTypeImports?: boolean } = {},
): Map<string, string[]> {
  const inCore = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    // Parsing alone is enough here (no program, no checker): a few hundred ms for all of core.
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2023);
    const targets = new Set<string>();
    for (const statement of source.statements) {
      const specifier = options.withTypeImports
        ? anySpecifier(statement)
        : runtimeSpecifier(statement);
      if (specifier === undefined) continue;
      const resolved = ts.resolveModuleName(specifier, file, COMPILER_OPTIONS, ts.sys)
        .resolvedModule?.resolvedFileName;
      if (resolved !== undefined && inCore.has(resolved)) targets.add(resolved);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

function anySpecifier(statement: ts.Statement): string | undefined {
  if (
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
    statement.moduleSpecifier !== undefined &&
    ts.isStringLiteral(statement.moduleSpecifier)
  ) {
    return statement.moduleSpecifier.text;
  }
  return undefined;
}

function runtimeSpecifier(statement: ts.Statement): string | undefined {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (clause?.isTypeOnly) return undefined;
    const named = clause?.namedBindings;
    // `import { type A, type B }` with nothing else is erased too.
    if (
      clause !== undefined &&
      clause.name === undefined &&
      named !== undefined &&
      ts.isNamedImports(named) &&
      named.elements.length > 0 &&
      named.elements.every((element) => element.isTypeOnly)
    ) {
      return undefined;
    }
    return ts.isStringLiteral(statement.moduleSpecifier)
      ? statement.moduleSpecifier.text
      : undefined;
  }
  if (ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined) {
    if (statement.isTypeOnly) return undefined;
    const clause = statement.exportClause;
    if (
      clause !== undefined &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((element) => element.isTypeOnly)
    ) {
      return undefined;
    }
    return ts.isStringLiteral(statement.moduleSpecifier)
      ? statement.moduleSpecifier.text
      : undefined;
  }
  return undefined;
}

/** The strongly connected components of more than one file (each one an import circle). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative enough for a few hundred files.
  let index = 0;
  const indices = new Map<string, number>();
  const lowlinks = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node) ?? 0, lowlinks.get(next) ?? 0));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node) ?? 0, indices.get(next) ?? 0));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return components;
}

/**
 * Names exported by more than one module of core that stand for different declarations (the
 * same declaration re-exported from two faces is one name, not a duplicate). `faces` looks at
 * the `index.ts` files only; `all` at every module, so two files exporting a `cancelEpisode`
 * of their own count even when only one of them reaches an index.
 */
export function duplicateExportedNames(
  modules: CoreModules,
  scope: "faces" | "all" = "all",
): Map<string, string[]> {
  const checker = modules.program.getTypeChecker();
  const declarationsByName = new Map<string, Set<string>>();
  for (const file of modules.files) {
    if (scope === "faces" && path.basename(file) !== "index.ts") continue;
    // Test fixtures imitate user modules, whose export names (`default`, `createWorkClaims`,
    // `deployment`) are dictated by the loader they test.
    if (scope === "all" && file.split(path.sep).includes("testing")) continue;
    const source = modules.program.getSourceFile(file);
    const moduleSymbol = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (moduleSymbol === undefined) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      if (exported.name === "default") continue;
      const target =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = target.declarations?.[0];
      if (declaration === undefined) continue;
      const where = `${path.relative(modules.root, declaration.getSourceFile().fileName)}`;
      const seen = declarationsByName.get(exported.name) ?? new Set<string>();
      seen.add(`${where}#${target.name}`);
      declarationsByName.set(exported.name, seen);
    }
  }
  const duplicates = new Map<string, string[]>();
  for (const [name, declarations] of declarationsByName) {
    if (declarations.size > 1) duplicates.set(name, [...declarations].sort());
  }
  return duplicates;
}
