// The console's pages (SPEC section 10) in one list: the sidebar, the page headers and the
// "coming soon" placeholders all read from here so a page is named the same way everywhere.

export type TConsolePageId =
  | "overview"
  | "episodes"
  | "claims"
  | "trigger-requests"
  | "actors"
  | "triggers"
  | "workflows"
  | "findings"
  | "telemetry"
  | "audit"
  | "recovery";

export interface TConsolePage {
  id: TConsolePageId;
  href: string;
  label: string;
  /** One sentence under the page title: what the page is for. */
  summary: string;
  /** What the page will offer; shown on placeholders so operators know what is coming. */
  planned: readonly string[];
}

export interface TConsolePageGroup {
  label: string;
  pages: readonly TConsolePage[];
}

export const CONSOLE_PAGE_GROUPS: readonly TConsolePageGroup[] = [
  {
    label: "Runtime",
    pages: [
      {
        id: "overview",
        href: "/",
        label: "Overview",
        summary: "Cluster health at a glance: episodes by status and the nodes that are alive.",
        planned: [],
      },
      {
        id: "episodes",
        href: "/episodes",
        label: "Episodes",
        summary: "Every run of an expectation, from creation to its final status.",
        planned: [
          "Filter by actor, expectation, status, trigger type, stack, env and time",
          "Step journal timeline with turns and tokens per step",
          "Claim owner, attempt and lease countdown; recovery history",
          "Retry, cancel and archive",
        ],
      },
      {
        id: "claims",
        href: "/claims",
        label: "Work claims",
        summary: "The leases that make exactly one node execute each episode.",
        planned: [
          "Claim state, owner node and lease countdown",
          "Attempts and steals per dedupe key",
          "Expired leases waiting for recovery",
        ],
      },
      {
        id: "trigger-requests",
        href: "/trigger-requests",
        label: "Trigger requests",
        summary: "Deferred executions written by trigger-only nodes for workers to pick up.",
        planned: [
          "State, owner node, age and attempts",
          "Requests waiting for a full-mode worker",
          "Expired and dispatched requests",
        ],
      },
    ],
  },
  {
    label: "Configuration",
    pages: [
      {
        id: "actors",
        href: "/actors",
        label: "Actors & modes",
        summary: "Compiled and dynamic actors, their expectations, and every node's mode.",
        planned: [
          "Actors with their expectations, strategies and budgets",
          "Node-wide modes and per-actor overrides, switchable",
          "Fire any expectation by hand",
        ],
      },
      {
        id: "triggers",
        href: "/triggers",
        label: "Triggers",
        summary: "Named fan-out points that start workflows from events, schedules and polls.",
        planned: [
          "Kind, rule, next and last fire, paused state",
          "Fire, pause and resume",
          "Firing history with fan-out outcomes",
        ],
      },
      {
        id: "workflows",
        href: "/workflows",
        label: "Workflows",
        summary: "DAGs of actor expectations and the instances running through them.",
        planned: [
          "Instances with their step graph and step states",
          "Blocked instances waiting for an operator",
          "Resume, retry and cancel",
        ],
      },
    ],
  },
  {
    label: "Observability",
    pages: [
      {
        id: "findings",
        href: "/findings",
        label: "Findings",
        summary: "What episodes raised: one active finding per key and env.",
        planned: ["Active and cleared findings", "Expiry and history per finding key"],
      },
      {
        id: "telemetry",
        href: "/telemetry",
        label: "Telemetry",
        summary:
          "Per actor throughput, queue wait and run time; per-minute rollups of claim, episode, trigger and recovery events.",
        planned: [
          "Charts per event and node",
          "Alert conditions: steals and failed renewals in normal operation",
        ],
      },
      {
        id: "audit",
        href: "/audit",
        label: "Audit log",
        summary: "Every state-changing call: who made it, when, and on what.",
        planned: ["Filter by operator, action and target", "Before and after of each change"],
      },
    ],
  },
  {
    label: "Maintenance",
    pages: [
      {
        id: "recovery",
        href: "/recovery",
        label: "Recovery",
        summary: "Orphaned episodes found by the recovery sweep and what happened to them.",
        planned: [
          "Sweep history per node and stack",
          "Episodes restarted from their checkpoint or failed",
          "Run a sweep by hand",
        ],
      },
    ],
  },
];

export const CONSOLE_PAGES: readonly TConsolePage[] = CONSOLE_PAGE_GROUPS.flatMap(
  (group) => group.pages,
);

export function getConsolePage(id: TConsolePageId): TConsolePage {
  const page = CONSOLE_PAGES.find((candidate) => candidate.id === id);
  // Unreachable: ids are a closed union and the list above covers every one.
  if (!page) throw new Error(`Unknown console page: ${id}`);
  return page;
}
