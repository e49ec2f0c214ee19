import { z } from "zod";
import type { ExpectationDefinition } from "../actors/index";
import type { Queryable } from "../db/index";
import {
  EPISODE_WAIT_COLUMNS,
  toEpisodeWait,
  type EpisodeWait,
  type EpisodeWaitRow,
} from "./episode-wait";

/** What the console's episode page shows of a signal the episode's expectation accepts. */
export interface DeclaredSignal {
  name: string;
  /** The payload's JSON Schema (zod's `toJSONSchema`, input side): the form is built from it. */
  jsonSchema: Record<string, unknown> | null;
}

/** An episode's wait as its page shows it, with the signals its expectation accepts. */
export interface EpisodeWaitView {
  /** Its current (or last) wait; null when it never waited. */
  wait: EpisodeWait | null;
  signals: DeclaredSignal[];
}

/**
 * An episode's current (or last) wait and the signals its expectation declares (found by
 * `expectationOf`, the caller's registry); undefined when there is no such episode.
 */
export async function loadEpisodeWait(
  options: {
    episodeId: string;
    expectationOf: (
      actorId: string,
      expectationId: string,
    ) => Pick<ExpectationDefinition, "signals"> | undefined;
  },
  db: Queryable,
): Promise<EpisodeWaitView | undefined> {
  const columns = EPISODE_WAIT_COLUMNS.split(", ")
    .map((column) => `w.${column}`)
    .join(", ");
  const { rows } = await db.query<
    Partial<EpisodeWaitRow> & { actor_id: string; expectation_id: string }
  >(
    `SELECT e.actor_id, e.expectation_id, ${columns}
       FROM cyclium_episodes e LEFT JOIN cyclium_episode_waits w ON w.episode_id = e.id
      WHERE e.id = $1`,
    [options.episodeId],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  const wait = row.episode_id == null ? null : toEpisodeWait(row as EpisodeWaitRow);
  const expectation = options.expectationOf(row.actor_id, row.expectation_id);
  return { wait, signals: describeSignals(expectation) };
}

/** The signals an expectation declares, each with its payload's JSON Schema for a form. */
export function describeSignals(
  expectation: Pick<ExpectationDefinition, "signals"> | undefined,
): DeclaredSignal[] {
  return Object.entries(expectation?.signals ?? {}).map(([name, schema]) => {
    try {
      const jsonSchema = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
      return { name, jsonSchema };
    } catch {
      return { name, jsonSchema: null };
    }
  });
}
