import type { Queryable } from "../../db/index";
import type { StartStepRequest, StepStarter } from "../step-starter";

export interface DatabaseStepStarter {
  start: StepStarter;
  requests: StartStepRequest[];
}

const SQL = `
INSERT INTO cyclium_episodes
  (actor_id, expectation_id, status, trigger_type, dedupe_key, input, started_at,
   workflow_instance_id, workflow_step, source_env)
VALUES ($1, $2, 'running', 'workflow', $3, $4::jsonb, now(), $5, $6, $7)
ON CONFLICT (dedupe_key) WHERE dedupe_key IS NOT NULL AND archived_at IS NULL DO NOTHING
RETURNING id`;

/**
 * A stand-in for the runtime's `fire` in workflow tests: creates the step's episode as
 * `running` (deduplicated on its idempotency key like a manual fire) and records the request.
 */
export function databaseStepStarter(db: Queryable, env: string | null = null): DatabaseStepStarter {
  const requests: StartStepRequest[] = [];
  return {
    requests,
    async start(request) {
      requests.push(request);
      const result = await db.query<{ id: string }>(SQL, [
        request.actorId,
        request.expectationId,
        `manual:${request.actorId}:${request.expectationId}:${request.idempotencyKey}`,
        JSON.stringify(request.input ?? {}),
        request.workflowInstanceId,
        request.workflowStep,
        env,
      ]);
      const row = result.rows[0];
      return row ? { kind: "created", episodeId: row.id } : { kind: "deduped" };
    },
  };
}
