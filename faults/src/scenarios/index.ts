import { noFaults } from "./s1-no-faults";
import type { Scenario } from "./scenario";

/** Every scenario of issue 8, in the order `pnpm faults` runs them. */
export const SCENARIOS: readonly Scenario[] = [noFaults];
