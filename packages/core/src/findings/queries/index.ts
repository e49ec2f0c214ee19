// The console's read models of findings: the keyset list per env and status, and the Overview's
// summary of active findings.
export {
  listFindings,
  summariseActiveFindings,
  type ActiveFindingsSummary,
  type FindingListFilters,
  type ListFindingsOptions,
} from "./list-findings";
