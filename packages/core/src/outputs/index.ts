export {
  EPISODE_OUTPUT_COLUMNS,
  toEpisodeOutput,
  type EpisodeOutput,
  type EpisodeOutputRow,
} from "./episode-output";
export { listEpisodeOutputs } from "./list-episode-outputs";
export { outputKeyOf, type OutputKeyEpisode } from "./output-key";
export { writeOutput, type WriteOutputOptions, type WriteOutputResult } from "./write-output";
