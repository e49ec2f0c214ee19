/** What `pnpm bench --scale` runs (the options of bench/src/config.ts). */
export interface ScaleConfig {
  sizes: number[];
  /** Seconds of the idle window, after a 10 s settle (scale-phases.ts). */
  idleSeconds: number;
  /** Episodes fired one at a time to count LISTEN deliveries. */
  probes: number;
  /** Items pre-inserted for the drain. */
  drainItems: number;
  orphans: number;
}
