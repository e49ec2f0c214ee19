// Read models of the console that span concepts: the Overview (episode counts and live nodes)
// and the envs worth offering in the env selector (from episodes and nodes).
export { getOverviewStats, type OverviewStats } from "./get-overview-stats";
export { listKnownEnvs } from "./list-known-envs";
