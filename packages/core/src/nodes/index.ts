// Public face of the node registry: each process's row in cyclium_nodes, refreshed by a
// heartbeat, and the listing the console shows.
export type { NodeInfo, NodeKind, NodeRecord, NodeStatus } from "./node";
export { registerNode, type RegisterNodeOptions } from "./register-node";
export { recordNodeHeartbeat, type RecordNodeHeartbeatOptions } from "./record-node-heartbeat";
export { markNodeStopped, type MarkNodeStoppedOptions } from "./mark-node-stopped";
export { listNodes, DEFAULT_LIVE_WITHIN_MS, type ListNodesOptions } from "./list-nodes";
export {
  listRegisteredStrategies,
  type ListRegisteredStrategiesOptions,
  type RegisteredStrategy,
} from "./list-registered-strategies";
export {
  NodeHeartbeat,
  DEFAULT_NODE_HEARTBEAT_MS,
  type NodeHeartbeatOptions,
} from "./node-heartbeat";
export {
  MAX_NODE_IDENTITY_LENGTH,
  processNodeIdentity,
  resolveNodeIdentity,
  type NodeIdentitySource,
} from "./node-identity";
