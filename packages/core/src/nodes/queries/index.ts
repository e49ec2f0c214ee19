// The console's read models of the node registry: live nodes by the database clock, and the
// cluster's modes (what nodes report beside what operators stored).
export { listClusterModes, type ClusterModes } from "./list-cluster-modes";
export { LIVE_NODE_WINDOW_SECONDS, listLiveNodes, type LiveNode } from "./list-live-nodes";
