export {
  MAX_NODE_IDENTITY_LENGTH,
  processNodeIdentity,
  resolveNodeIdentity,
  type NodeIdentitySource,
} from "./node-identity";
