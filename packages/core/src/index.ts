// The public face of @cyclium/core: one namespace per concept of the SPEC. Deep imports such as
// "@cyclium/core/claims" reach the same modules.
export * as bus from "./bus/index";
export * as claims from "./claims/index";
export * as db from "./db/index";
export * as episodes from "./episodes/index";
export * as errors from "./errors/index";
export * as findings from "./findings/index";
export * as identity from "./identity/index";
export * as modes from "./modes/index";
export * as nodes from "./nodes/index";
export * as recovery from "./recovery/index";
export * as scope from "./scope/index";
export * as telemetry from "./telemetry/index";
export * as triggers from "./triggers/index";
export * as workflows from "./workflows/index";
