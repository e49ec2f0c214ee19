// Public face of configuration: the SPEC's variables in one schema that each app extends.
export {
  describeEnvIssues,
  readEnvOrExit,
  withoutEmptyValues,
  ZDatabaseUrl,
  ZCycliumEnv,
  ZEnvBoolean,
  ZEnvPositiveInt,
  ZEnvText,
  type TCycliumEnv,
} from "./cyclium-env";
export {
  retentionPolicyFromEnv,
  ZActorRetentionAges,
  ZRetentionAge,
  ZRetentionEnv,
  type TRetentionEnv,
} from "./retention-env";
export { tracingExporterFromEnv, ZTracingEnv, type TTracingEnv } from "./tracing-env";
