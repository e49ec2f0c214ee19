// Every REST v1 operation, one row each: what the OpenAPI document says about it. The schemas
// named here are the ones the endpoints validate with (`*.schema.ts`) and answer with
// (`*-answers.schema.ts`); openapi-document.ts turns the rows into paths, once per prefix.
import type { TRole } from "../../auth/principal";

/** Error answers an operation may give, each described once in `components.responses`. */
export type TErrorStatus = 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503;

export interface TRestOperation {
  /** Unique across the document; the `/v1` copy gets a `cloacina` prefix. */
  operationId: string;
  method: "get" | "post" | "patch" | "put";
  /** Below `/api/v1` (and `/v1`). */
  path: string;
  tag: "actors" | "triggers" | "episodes";
  summary: string;
  description: string;
  /** Least role that may call it (viewer < operator < admin). */
  role: TRole;
  /** `components.parameters` names: path first, then query. */
  parameters: readonly string[];
  /** `components.schemas` name of the JSON body, if it takes one. */
  body?: string;
  /** An empty body counts as `{}` (Cloacina's CLI may send none). */
  bodyOptional?: true;
  ok: { status: 200 | 201; schema: string; description: string };
  errors: readonly TErrorStatus[];
}

/** Every call is authenticated, checked against its tenant, and rate-limited on refusals. */
const ALWAYS: readonly TErrorStatus[] = [400, 401, 403, 429, 500];
const ACTOR = ["Tenant", "ActorName"] as const;
const TRIGGER = ["Tenant", "TriggerName"] as const;

const ACTORS_NOTE =
  "Dynamic actors of env `{t}` only: a token limited to tenants reaches only theirs. Reads need a viewer, writes an admin.";
const TRIGGERS_NOTE =
  "Cloacina's trigger API (its OpenAPI 0.10.0), with our fields beside its own and its error codes (`unauthorized`, `trigger_not_found`, `invalid_pagination`, `internal_error`). `{name}` is a trigger's name or its primary workflow's.";

export const REST_OPERATIONS: readonly TRestOperation[] = [
  {
    operationId: "episodeWaitReason",
    method: "get",
    path: "/tenants/{t}/episodes/{id}/wait-reason",
    tag: "episodes",
    summary: "Why a pending episode waits",
    description:
      'The console\'s "Why it waits", as `client.waitReason(id)` gives it: scheduled, a retry\'s backoff, a cluster-wide limit ("Global limit 5/5, running on ...", "Rate limited until ..."), no node for it. `wait_reason` is null unless the episode is pending. An episode of another tenant is a 404.',
    role: "viewer",
    parameters: ["Tenant", "EpisodeId"],
    ok: {
      status: 200,
      schema: "EpisodeWait",
      description: "The episode's status and wait reason.",
    },
    errors: [...ALWAYS, 404],
  },
  {
    operationId: "signalEpisode",
    method: "post",
    path: "/tenants/{t}/episodes/{id}/signals/{name}",
    tag: "episodes",
    summary: "Send a signal to an episode",
    description:
      "Delivers signal `{name}` to episode `{id}` of env `{t}` (SPEC section 17): a `waitFor` of that name resumes with `payload`, validated first against the schema the episode's expectation declares (a bad payload is a 400 naming the field, an undeclared name a 400 naming `name`). A signal sent before the wait is kept until a wait consumes it; the same `idempotencyKey` twice delivers once (`kind: duplicate`). An ended episode is a 409. Audited with who sent it and the payload.",
    role: "operator",
    parameters: ["Tenant", "EpisodeId", "SignalName"],
    body: "SignalBody",
    bodyOptional: true,
    ok: { status: 200, schema: "SignalAnswer", description: "Delivered, or a duplicate." },
    errors: [...ALWAYS, 404, 409, 503],
  },
  {
    operationId: "listActors",
    method: "get",
    path: "/tenants/{t}/actors",
    tag: "actors",
    summary: "List the tenant's dynamic actors",
    description: `${ACTORS_NOTE} Not paginated: a tenant has few dynamic actors.`,
    role: "viewer",
    parameters: ["Tenant"],
    ok: { status: 200, schema: "ActorList", description: "Every dynamic actor of the tenant." },
    errors: ALWAYS,
  },
  {
    operationId: "createActor",
    method: "post",
    path: "/tenants/{t}/actors",
    tag: "actors",
    summary: "Create a dynamic actor",
    description: `${ACTORS_NOTE} Nodes load it at once. An identifier already taken, or one of the deployment's actors, is a 409 naming the clash.`,
    role: "admin",
    parameters: ["Tenant"],
    body: "ActorDefinitionInput",
    ok: { status: 201, schema: "ActorAnswer", description: "The actor as stored." },
    errors: [...ALWAYS, 409],
  },
  {
    operationId: "getActor",
    method: "get",
    path: "/tenants/{t}/actors/{name}",
    tag: "actors",
    summary: "Read one dynamic actor",
    description: ACTORS_NOTE,
    role: "viewer",
    parameters: ACTOR,
    ok: { status: 200, schema: "ActorAnswer", description: "The actor." },
    errors: [...ALWAYS, 404],
  },
  {
    operationId: "updateActor",
    method: "patch",
    path: "/tenants/{t}/actors/{name}",
    tag: "actors",
    summary: "Change some fields of a dynamic actor",
    description: `${ACTORS_NOTE} The identifier cannot change (episodes name the actor by it).`,
    role: "admin",
    parameters: ACTOR,
    body: "ActorDefinitionChanges",
    ok: { status: 200, schema: "ActorAnswer", description: "The actor as stored." },
    errors: [...ALWAYS, 404, 409],
  },
  {
    operationId: "replaceActor",
    method: "put",
    path: "/tenants/{t}/actors/{name}",
    tag: "actors",
    summary: "Replace a dynamic actor's definition",
    description: `${ACTORS_NOTE} The body's identifier must be the one in the path.`,
    role: "admin",
    parameters: ACTOR,
    body: "ActorDefinitionInput",
    ok: { status: 200, schema: "ActorAnswer", description: "The actor as stored." },
    errors: [...ALWAYS, 404, 409],
  },
  ...(["enable", "disable"] as const).map((verb): TRestOperation => ({
    operationId: `${verb}Actor`,
    method: "post",
    path: `/tenants/{t}/actors/{name}/${verb}`,
    tag: "actors",
    summary: `${verb === "enable" ? "Enable" : "Disable"} a dynamic actor`,
    description: `${ACTORS_NOTE} There is no DELETE: episodes keep naming the actor, so it is disabled instead.`,
    role: "admin",
    parameters: ACTOR,
    ok: { status: 200, schema: "ActorAnswer", description: "The actor as stored." },
    errors: [...ALWAYS, 404, 409],
  })),
  {
    operationId: "listTriggers",
    method: "get",
    path: "/tenants/{t}/triggers",
    tag: "triggers",
    summary: "List the tenant's triggers, newest first",
    description: `${TRIGGERS_NOTE} Paginated by \`limit\` and \`offset\`; \`total\` counts every page.`,
    role: "viewer",
    parameters: ["Tenant", "Limit", "Offset"],
    ok: { status: 200, schema: "TriggerList", description: "One page of triggers." },
    errors: ALWAYS,
  },
  {
    operationId: "inspectTrigger",
    method: "get",
    path: "/tenants/{t}/triggers/{name}",
    tag: "triggers",
    summary: "Inspect a trigger and its recent firings",
    description: `${TRIGGERS_NOTE} \`recent_executions\` are Cloacina's last 10; \`recent_firings\` ours, as many as \`firings\` asks.`,
    role: "viewer",
    parameters: [...TRIGGER, "Firings"],
    ok: { status: 200, schema: "TriggerInspection", description: "The trigger." },
    errors: [...ALWAYS, 404],
  },
  {
    operationId: "describeTriggerInterface",
    method: "get",
    path: "/tenants/{t}/triggers/{name}/interface",
    tag: "triggers",
    summary: "The context a trigger's fires carry",
    description: `${TRIGGERS_NOTE} **Differs from Cloacina:** Cloacina answers a packaged workflow's declared interface (\`kind\`, \`name\`, \`slots\`); our triggers declare none, so this lists as \`parameters\` the context keys every fire of the trigger hands its workflows.`,
    role: "viewer",
    parameters: TRIGGER,
    ok: { status: 200, schema: "TriggerInterface", description: "The trigger's context keys." },
    errors: [...ALWAYS, 404],
  },
  {
    operationId: "fireTrigger",
    method: "post",
    path: "/tenants/{t}/triggers/{name}/fire",
    tag: "triggers",
    summary: "Fire a trigger now",
    description: `${TRIGGERS_NOTE} Never deduplicated, and fires a paused trigger too. A primary workflow in no deployment this console runs is a 409 (the firing is recorded as failed); a console whose node is not running answers 503.`,
    role: "operator",
    parameters: TRIGGER,
    body: "FireTriggerBody",
    bodyOptional: true,
    ok: { status: 200, schema: "TriggerFire", description: "The workflows this fire started." },
    errors: [...ALWAYS, 404, 409, 503],
  },
  ...(["pause", "resume"] as const).map((verb): TRestOperation => ({
    operationId: `${verb}Trigger`,
    method: "post",
    path: `/tenants/{t}/triggers/{name}/${verb}`,
    tag: "triggers",
    summary: verb === "pause" ? "Pause a trigger's schedule" : "Resume a paused trigger's schedule",
    description: `${TRIGGERS_NOTE} Pause stops the scheduler, not an operator's fire.`,
    role: "operator",
    parameters: TRIGGER,
    ok: { status: 200, schema: "TriggerPauseState", description: "The trigger's state." },
    errors: [...ALWAYS, 404],
  })),
];
