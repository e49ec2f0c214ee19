export * as bus from "./bus/index";
export * as modes from "./modes/index";
export * as nodes from "./nodes/index";
