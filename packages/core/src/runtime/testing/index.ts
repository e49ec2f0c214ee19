// Strategies for tests and benchmarks of the runtime (not for production actors).
export { noopStrategy, stepsStrategy, throwingStrategy } from "./test-strategies";
