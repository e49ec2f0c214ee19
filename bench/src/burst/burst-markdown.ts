import type { BurstResult } from "./run-burst";

/** Issue 18's goal for one worker holding a 100,000-event burst. */
export const PEAK_RSS_GOAL_MB = 300;

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const s = (seconds: number | null) => (seconds === null ? "–" : `${seconds.toFixed(1)} s`);
const rate = (n: number | null) => (n === null ? "–" : Math.round(n).toLocaleString("en-US"));

/** The burst run as a short markdown table. */
export function burstMarkdown(result: BurstResult, info: { command: string; node: string }) {
  const { config } = result;
  const peakMb = result.peakRss / MB;
  const lines = [
    `## Burst: ${config.size.toLocaleString("en-US")} events at one actor, maxConcurrentEpisodes ${config.slots}, one worker`,
    "",
    `Events ${result.delivery}. \`${info.command}\`, Node ${info.node}.`,
    "",
    "| | |",
    "|--|--:|",
    `| **worker peak RSS (VmHWM)** | **${mb(result.peakRss)}** (goal < ${PEAK_RSS_GOAL_MB} MB: ${peakMb < PEAK_RSS_GOAL_MB ? "met" : "MISSED"}) |`,
    `| RSS before the burst (VmHWM before) | ${mb(result.rssBefore)} (${mb(result.hwmBefore)}) |`,
    `| highest RSS sampled every 250 ms | ${mb(result.maxSampledRss)} |`,
    `| highest V8 heap used / external | ${mb(result.maxHeapUsed)} / ${mb(result.maxExternal)} |`,
    `| highest queue (memory + table) | ${result.maxQueued.toLocaleString("en-US")} |`,
    `| events published${config.via === "host" ? " (fired)" : ""} | ${s(result.publishSeconds)} |`,
    ...(config.via === "bus"
      ? [`| events delivered to the worker | ${s(result.deliveredSeconds)} |`]
      : []),
    `| burst accepted (every episode row inserted) | ${s(result.acceptedSeconds)} |`,
    `| episodes completed | ${(result.final?.completed ?? 0).toLocaleString("en-US")} of ${config.size.toLocaleString("en-US")} |`,
    `| **drained (every episode completed)** | **${s(result.drainSeconds)}** |`,
    `| **episodes/s, whole burst** | **${rate(result.episodesPerSecond)}** |`,
    `| episodes/s after the accept | ${rate(result.episodesPerSecondAfterAccept)} |`,
    `| worker CPU, queries | ${result.usage === null ? "–" : `${(result.usage.cpuMs / 1000).toFixed(1)} s, ${result.usage.queries.toLocaleString("en-US")}`} |`,
    `| completed exactly once | ${result.problems.length === 0 ? `yes: ${config.size.toLocaleString("en-US")} completed, none pending/running, one step row and one strategy run each` : `**NO**: ${result.problems.join("; ")}`} |`,
  ];
  return lines.join("\n");
}
