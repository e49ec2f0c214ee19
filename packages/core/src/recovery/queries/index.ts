// The console's read models of recovery: candidates for the next sweep, recorded sweeps, each
// node's sweep timer, and the record of a sweep an operator ran.
export { getRecoveryOverview, type RecoveryOverview } from "./get-recovery-overview";
export {
  listNodeSweepActivity,
  listRecoverySweeps,
  recordRecoverySweep,
  type NodeSweepActivity,
  type RecoverySweepItem,
} from "./list-recovery-sweeps";
