// Expectation input schemas for forms: JSON Schema with an example (the console's Fire form) and
// the server-side check of a fire's or a retry's input against the zod schema.
export { describeInputSchemas, type ExpectationInputSchema } from "./describe-input-schemas";
export { exampleFromJsonSchema } from "./example-input";
export {
  validateExpectationInput,
  type InputIssue,
  type ValidateExpectationInputResult,
} from "./validate-expectation-input";
