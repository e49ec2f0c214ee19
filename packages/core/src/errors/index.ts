export {
  CYCLIUM_ERROR_CODES,
  CycliumError,
  isCycliumError,
  type CycliumErrorCode,
} from "./cyclium-error";
export { assertNever } from "./assert-never";
export { redactSecrets, REDACTED } from "./redact-secrets";
