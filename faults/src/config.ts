import { parseArgs } from "node:util";

export interface SuiteArgs {
  quick: boolean;
  /** Scenario ids to run, in order; all when not given. */
  only: number[] | null;
  /** Re-check an earlier run's results directory instead of running anything. */
  checkDir: string | null;
  /** Scenario 10's seed; null draws one (printed at the start). */
  seed: number | null;
  /** Overrides the whole run's hard deadline (seconds). */
  deadlineS: number | null;
  /** Scenarios run at once (`--lanes N`); null: 2 for `--quick`, 1 for the full run. */
  lanes: number | null;
}

const USAGE = `usage: pnpm faults [--quick] [--only 1,2,...] [--seed N] [--deadline S] [--lanes N] [--check <results dir>]`;
const SCENARIO_COUNT = 12;

export function parseSuiteArgs(argv: readonly string[]): SuiteArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: "boolean", default: false },
      only: { type: "string" },
      check: { type: "string" },
      seed: { type: "string" },
      deadline: { type: "string" },
      lanes: { type: "string" },
      help: { type: "boolean", default: false },
    },
    strict: true,
    // `pnpm faults -- --quick` passes a lone "--" through.
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const only = values.only?.split(",").map((id) => Number(id.trim())) ?? null;
  if (only?.some((id) => !Number.isInteger(id) || id < 1 || id > SCENARIO_COUNT)) {
    console.error(`--only takes scenario numbers 1-${SCENARIO_COUNT}\n${USAGE}`);
    process.exit(2);
  }
  const seed = values.seed === undefined ? null : Number(values.seed);
  if (seed !== null && (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)) {
    console.error(`--seed takes an integer 0-${0xffffffff}\n${USAGE}`);
    process.exit(2);
  }
  const deadlineS = values.deadline === undefined ? null : Number(values.deadline);
  if (deadlineS !== null && (!Number.isFinite(deadlineS) || deadlineS <= 0)) {
    console.error(`--deadline takes a number of seconds\n${USAGE}`);
    process.exit(2);
  }
  const lanes = values.lanes === undefined ? null : Number(values.lanes);
  if (lanes !== null && (!Number.isInteger(lanes) || lanes < 1 || lanes > SCENARIO_COUNT)) {
    console.error(`--lanes takes a number of scenarios run at once, 1-${SCENARIO_COUNT}\n${USAGE}`);
    process.exit(2);
  }
  return { quick: values.quick, only, checkDir: values.check ?? null, seed, deadlineS, lanes };
}
