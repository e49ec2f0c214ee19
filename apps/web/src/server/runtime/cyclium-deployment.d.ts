// `@cyclium/deployment` is an alias next.config.ts resolves at build time from
// CYCLIUM_DEPLOYMENT; its exports are checked at run time (deploymentFromModule).
declare module "@cyclium/deployment" {
  const deploymentModule: unknown;
  export default deploymentModule;
  export const deployment: unknown;
}
