// Fires the greeter from any process (a web handler, a script) without running a node:
// `node dist/fire.js Ada`. A worker runs the episode.
import { createClient } from "@cyclium/core";
import { deployment } from "./deployment.js";
import { env } from "./env.js";

const client = createClient(
  { connectionString: env.databaseUrl! },
  { deployment, env: env.cycliumEnv },
);
const fired = await client.fire({
  actorId: "greeter",
  expectationId: "greet",
  input: { name: process.argv[2] ?? "world" },
});
console.log(JSON.stringify(fired));
await client.close();
