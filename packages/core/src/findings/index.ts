export { announceFinding, type FindingTransition } from "./announce-finding";
export { clearExpiredFindings } from "./clear-expired-findings";
export { clearFinding, type ClearFindingOptions, type ClearFindingResult } from "./clear-finding";
export {
  FINDING_STATUSES,
  findingColumns,
  toFinding,
  type Finding,
  type FindingRow,
  type FindingStatus,
} from "./finding-row";
export { createFindings, type EnvOption, type Findings, type FindingsOptions } from "./findings";
export { listActiveFindings, type FindingFilters } from "./list-active-findings";
export {
  raiseFinding,
  type FindingSource,
  type RaiseFindingOptions,
  type RaiseFindingResult,
} from "./raise-finding";
export {
  FINDINGS_EXPIRY_CLAIM_KEY,
  sweepExpiredFindings,
  type SweepExpiredFindingsOptions,
  type SweepExpiredFindingsResult,
} from "./sweep-expired-findings";
export {
  findingsExpiryExtension,
  type FindingsExpiryExtension,
  type FindingsExpiryExtensionOptions,
  type FindingsExpiryNode,
} from "./findings-expiry-extension";
export type { FencedFindingResult, StrategyFindingInput } from "./strategy-finding";
