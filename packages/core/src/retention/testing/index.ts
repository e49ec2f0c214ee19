export { seedFinishedHistory, type SeedFinishedHistoryOptions } from "./seed-finished-history";
