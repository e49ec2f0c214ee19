export { seedStaleEpisodes, type SeedStaleEpisodesOptions } from "./seed-stale-episodes";
