import path from "node:path";
import { deploymentFromModule, isDeploymentPath, type Deployment } from "@cyclium/core/deployment";
import { CycliumError } from "@cyclium/core/errors";
// An alias next.config.ts points at the module CYCLIUM_DEPLOYMENT named when it was built.
import * as builtModule from "@cyclium/deployment";
import { BUILT_DEPLOYMENT } from "../../env";

/**
 * The deployment this build bundles, after checking that CYCLIUM_DEPLOYMENT still names it:
 * a console built for one deployment and started for another would show actors the workers
 * do not run, so that is a configuration error naming both, not a silent disagreement.
 */
export function builtDeployment(specifier: string): Deployment {
  const key = isDeploymentPath(specifier) ? path.resolve(specifier) : specifier;
  if (BUILT_DEPLOYMENT !== undefined && key !== BUILT_DEPLOYMENT) {
    throw new CycliumError(
      "invalid_config",
      `CYCLIUM_DEPLOYMENT=${specifier}, but this console was built with ${BUILT_DEPLOYMENT}: rebuild it (next build) with the same CYCLIUM_DEPLOYMENT.`,
    );
  }
  return deploymentFromModule(builtModule, BUILT_DEPLOYMENT ?? specifier);
}
