import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CycliumError } from "../errors/index";
import { isDeployment, type Deployment } from "./define-deployment";

/** CYCLIUM_DEPLOYMENT when unset (SPEC section 13): the demo, a workspace package. */
export const DEFAULT_DEPLOYMENT = "@cyclium/demo";

export interface LoadDeploymentOptions {
  /** Where a relative path and a package name are resolved from (default: process.cwd()). */
  cwd?: string | undefined;
}

/**
 * Loads the deployment that CYCLIUM_DEPLOYMENT names: a package name (resolved from `cwd`, as
 * the process's own dependency) or a module path, absolute or relative to `cwd`. The module
 * exports it as its default export or as `deployment`.
 */
export async function loadDeployment(
  specifier: string = DEFAULT_DEPLOYMENT,
  options: LoadDeploymentOptions = {},
): Promise<Deployment> {
  const cwd = options.cwd ?? process.cwd();
  const url = resolveDeploymentUrl(specifier, cwd);
  let loaded: unknown;
  try {
    // Chosen at run time: bundlers must not trace it (the console bundles its deployment instead).
    loaded = await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ url);
  } catch (error) {
    if (url === specifier && isModuleNotFound(error, specifier)) {
      throw notFound(specifier, cwd);
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new CycliumError(
      "invalid_config",
      `CYCLIUM_DEPLOYMENT=${specifier}: the module failed to load: ${reason}`,
      { cause: error },
    );
  }
  return deploymentFromModule(loaded, specifier);
}

/** The deployment a loaded module exports (default export or `deployment`), or a clear error. */
export function deploymentFromModule(loaded: unknown, specifier: string): Deployment {
  const exports = (typeof loaded === "object" && loaded !== null ? loaded : {}) as Record<
    string,
    unknown
  >;
  // A CommonJS module imported from ESM puts its exports object under `default`.
  const interop = exports.default as Record<string, unknown> | undefined;
  for (const candidate of [
    exports.default,
    exports.deployment,
    interop?.default,
    interop?.deployment,
  ]) {
    if (isDeployment(candidate)) return candidate;
  }
  const names = Object.keys(exports);
  throw new CycliumError(
    "invalid_config",
    `CYCLIUM_DEPLOYMENT=${specifier}: the module exports no deployment (exports: ${
      names.length > 0 ? names.join(", ") : "none"
    }). Export the result of defineDeployment({ actors, strategies, workflows, triggers }) as its default export or as \`deployment\`.`,
  );
}

/** True when the specifier names a file rather than a package. */
export function isDeploymentPath(specifier: string, cwd: string = process.cwd()): boolean {
  return (
    specifier.startsWith(".") ||
    path.isAbsolute(specifier) ||
    fs.existsSync(/* turbopackIgnore: true */ path.resolve(cwd, specifier))
  );
}

/**
 * A file URL for a path or a package resolved from `cwd`; the bare specifier itself when the
 * package resolves only through `import` (an ESM-only `exports` map), left to `import()`.
 */
function resolveDeploymentUrl(specifier: string, cwd: string): string {
  if (isDeploymentPath(specifier, cwd)) {
    const file = path.resolve(cwd, specifier);
    if (!fs.existsSync(/* turbopackIgnore: true */ file)) throw notFound(specifier, cwd);
    return pathToFileURL(file).href;
  }
  try {
    return pathToFileURL(createRequire(path.join(cwd, "package.json")).resolve(specifier)).href;
  } catch (error) {
    if (isModuleNotFound(error, specifier)) throw notFound(specifier, cwd);
    return specifier;
  }
}

function isModuleNotFound(error: unknown, specifier: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") &&
    typeof message === "string" &&
    message.includes(specifier)
  );
}

function notFound(specifier: string, cwd: string): CycliumError {
  return new CycliumError(
    "invalid_config",
    `CYCLIUM_DEPLOYMENT=${specifier}: no such module (a package name resolved from ${cwd}, or a module path, absolute or relative to it).`,
  );
}
