export { seedStaleEpisodes, type SeedStaleEpisodesOptions } from "./seed-stale-episodes";
export { spawnTestProcess, type TestProcess } from "./spawn-test-process";
