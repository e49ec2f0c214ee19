import { createClient } from "@cyclium/core/client";
import pg from "pg";

interface DemoResource {
  id: string;
  name: string;
  kind: string;
  usage: number;
  limit: number;
}

// One over its limit, one near it, the rest comfortable: the console has something to show.
const DEMO_RESOURCES: readonly DemoResource[] = [
  { id: "db-primary", name: "Primary database", kind: "database", usage: 71, limit: 100 },
  { id: "api-cluster", name: "API cluster", kind: "compute", usage: 118, limit: 100 },
  { id: "object-store", name: "Object storage", kind: "storage", usage: 820, limit: 1000 },
  { id: "queue-workers", name: "Queue workers", kind: "compute", usage: 12, limit: 40 },
];

/**
 * Inserts the demo resources unless they exist (an operator's edits survive restarts), proposes
 * one limit raise that waits for an operator's approval (once: its idempotency key dedupes every
 * later start) and returns the lines `pnpm start` prints.
 */
export async function seedDemoData(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO resources (id, name, kind, usage, "limit")
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::float8[])
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [
        DEMO_RESOURCES.map((r) => r.id),
        DEMO_RESOURCES.map((r) => r.name),
        DEMO_RESOURCES.map((r) => r.kind),
        DEMO_RESOURCES.map((r) => r.usage),
        DEMO_RESOURCES.map((r) => r.limit),
      ],
    );
    const total = await client.query<{ n: string }>("SELECT count(*) AS n FROM resources");
    const proposal = await proposeLimitRaise(url);
    return [
      `demo data: ${rows.length} resource(s) added, ${total.rows[0]?.n ?? "?"} in the resources table`,
      "demo actors: resource_monitor (on resource.updated) and resource_advisor (every 5 minutes)",
      proposal === "created"
        ? "demo approval: resource_monitor/raise_limit for api-cluster waits for an operator (Episodes, status waiting)"
        : "demo approval: already proposed on an earlier start",
    ];
  } finally {
    await client.end();
  }
}

/** The demo's durable wait: a limit raise for the resource over its limit, approved in the console. */
async function proposeLimitRaise(url: string): Promise<"created" | "deduped"> {
  const client = createClient({ connectionString: url }, { nodeIdentity: "demo-seed", by: "demo" });
  try {
    const fired = await client.fire({
      actorId: "resource_monitor",
      expectationId: "raise_limit",
      input: { resourceId: "api-cluster" },
      idempotencyKey: "demo:raise_limit:api-cluster",
    });
    return fired.kind;
  } finally {
    await client.close();
  }
}
