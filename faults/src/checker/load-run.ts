import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { ZHistoryRecord, type THistoryRecord } from "../history/records";
import {
  ZClaimRow,
  ZEpisodeRow,
  ZLimitStartRow,
  ZOpenRow,
  ZRequestRow,
  ZScenarioMeta,
  ZStepRow,
  type RunFacts,
} from "./run-facts";

async function readJsonl<S extends z.ZodType>(file: string, schema: S): Promise<z.output<S>[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  const rows: z.output<S>[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A process killed mid-write can leave a torn last line; everything before it counts.
      continue;
    }
    rows.push(schema.parse(value));
  }
  return rows;
}

/** Reads a scenario's results directory: scenario.json, db/*.jsonl, history/*.jsonl. */
export async function loadRun(dir: string): Promise<RunFacts> {
  const meta = ZScenarioMeta.parse(
    JSON.parse(await readFile(path.join(dir, "scenario.json"), "utf8")),
  );
  const historyDir = path.join(dir, "history");
  const files = (await readdir(historyDir)).filter((file) => file.endsWith(".jsonl")).sort();
  const history: THistoryRecord[] = [];
  for (const file of files) {
    history.push(...(await readJsonl(path.join(historyDir, file), ZHistoryRecord)));
  }
  history.sort((a, b) => a.t - b.t);
  return {
    meta,
    episodes: await readJsonl(path.join(dir, "db", "episodes.jsonl"), ZEpisodeRow),
    steps: await readJsonl(path.join(dir, "db", "steps.jsonl"), ZStepRow),
    claims: await readJsonl(path.join(dir, "db", "claims.jsonl"), ZClaimRow),
    requests: await readJsonl(path.join(dir, "db", "requests.jsonl"), ZRequestRow),
    open: await readJsonl(path.join(dir, "db", "open.jsonl"), ZOpenRow),
    limitStarts: await readJsonl(path.join(dir, "db", "limit-starts.jsonl"), ZLimitStartRow),
    history,
  };
}
