import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import type { BenchContext } from "../scenarios/context";
import { templateName } from "../scenarios/context";
import { cycliumSystem } from "../systems/cyclium/system";
import { runScale, type ScaleConfig } from "./run-scale";
import { scaleMarkdown } from "./scale-markdown";

/** `--scale`: the run, its table printed and written with its JSON to bench/results/scale-*. */
export async function scaleCommand(
  context: BenchContext,
  config: ScaleConfig,
  options: { startedAt: string; resultsDir: URL; log: (message: string) => void },
): Promise<void> {
  const loadBefore = os.loadavg();
  const template = templateName(context, cycliumSystem);
  await cycliumSystem.install(await context.server.createDatabase(template));
  await context.server.waitForNoBackends(template);
  const points = await runScale(context, config, options.log);
  const info = {
    command: `pnpm bench ${process.argv.slice(2).join(" ")}`.trim(),
    node: process.version,
    startedAt: options.startedAt,
    loadBefore,
    loadAfter: os.loadavg(),
  };
  const markdown = scaleMarkdown(points, config, info);
  await mkdir(options.resultsDir, { recursive: true });
  const base = `scale-${options.startedAt.replaceAll(":", "-").slice(0, 19)}`;
  await writeFile(
    new URL(`${base}.json`, options.resultsDir),
    JSON.stringify({ info, config, points }, null, 2),
  );
  await writeFile(new URL(`${base}.md`, options.resultsDir), `${markdown}\n`);
  console.log(markdown);
  options.log(`results in bench/results/${base}.{md,json}`);
  if (points.some((p) => p.problems.length > 0)) process.exitCode = 1;
}
