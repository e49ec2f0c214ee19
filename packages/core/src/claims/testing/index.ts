export {
  describeWorkClaimsConformance,
  type WorkClaimsConformanceOptions,
} from "./work-claims-conformance";
export type { InspectedClaim, MakeAdapter } from "./conformance-types";
