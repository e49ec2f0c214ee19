export {
  describeWorkClaimsConformance,
  type WorkClaimsConformanceOptions,
} from "./work-claims-conformance";
