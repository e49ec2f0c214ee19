// Public face of a Cyclium node (SPEC: one process of the cluster). `createCycliumNode` wires every
// runtime component of one process; extensions (recovery, workflows, fan-out triggers) plug in
// through `extensions`. Its identity, its row in cyclium_nodes refreshed by a heartbeat, and the
// listing the console shows live here too.
export type { NodeInfo, NodeKind, NodeRecord, NodeStatus } from "./node";
export { registerNode, type RegisterNodeOptions } from "./register-node";
export { recordNodeHeartbeat, type RecordNodeHeartbeatOptions } from "./record-node-heartbeat";
export {
  markNodeStopped,
  type MarkNodeStoppedOptions,
  type MarkNodeStoppedResult,
} from "./mark-node-stopped";
export { listNodes, type ListNodesOptions } from "./list-nodes";
export { DEFAULT_LIVE_WITHIN_MS, MAX_NODE_IDENTITY_LENGTH } from "../scope/index";
export {
  NodeHeartbeat,
  DEFAULT_NODE_HEARTBEAT_MS,
  NODE_MODES_APPLIED_TOPIC,
  type NodeHeartbeatOptions,
} from "./node-heartbeat";
export { processNodeIdentity, resolveNodeIdentity, type NodeIdentitySource } from "./node-identity";
export {
  createCycliumNode,
  type CycliumNode,
  type CycliumNodeOptions,
} from "./create-cyclium-node";
export type { CycliumNodeContext, NodeExtension, NodeExtensionHandle } from "./node-extension";
export {
  claimsExpiryExtension,
  type ClaimsExpiryExtensionOptions,
} from "./claims-expiry-extension";
export { ExpectationTriggers, type ExpectationTriggersOptions } from "./expectation-triggers";
// The node extensions of recovery and workflows: they plug those concepts into a node, so they
// sit with the node (as the claims expiry does), above recovery/ and workflows/.
export {
  recoveryExtension,
  type RecoveryExtension,
  type RecoveryExtensionOptions,
} from "./recovery-extension";
export { workflowExtension, type WorkflowExtension } from "./workflow-extension";
