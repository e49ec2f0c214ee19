/**
 * One step of an episode's journal (cyclium_episode_steps) as the step loop produced it: what the
 * runner writes, what recovery resumes from, what the console shows.
 */
export interface JournalStep {
  stepNo: number;
  outcome: string;
  data: unknown;
  turns: number;
  tokens: number;
  durationMs: number;
}
