// Strategies for tests and benchmarks of the runtime (not for production actors).
export { noopStrategy, stepsStrategy, throwingStrategy } from "./test-strategies";
export { createHostFixture, type EpisodeRowForTests } from "./host-fixture";
