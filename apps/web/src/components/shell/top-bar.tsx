import { connection } from "next/server";
import { Suspense } from "react";
import { getNodeInfo } from "@/server/node-info";
import { DisplayControls } from "./display-controls";
import { EnvSelector } from "./env-selector";
import { LiveUpdates } from "./live-updates";
import { RefreshControl } from "./refresh-control";
import { UserMenu } from "./user-menu";

function Badge({ label, value, title }: { label: string; value: string; title: string }) {
  return (
    <span className="topbar-badge" title={title}>
      <span className="topbar-badge-label">{label}</span>
      <span className="topbar-badge-value">{value}</span>
    </span>
  );
}

/** Which world this console looks at and which node it is: the first thing an operator checks. */
export async function TopBar() {
  // Node identity and env are per process, never baked in at build time; this also makes every
  // console page render per request, which an operator console wants anyway.
  await connection();
  const node = getNodeInfo();
  return (
    <header className="topbar">
      <div className="topbar-title">Operator console</div>
      <div className="topbar-badges">
        <Suspense
          fallback={<Badge label="env" value={node.env ?? "default"} title="This console's env" />}
        >
          <EnvSelector consoleEnv={node.env} />
        </Suspense>
        {node.stack ? (
          <Badge label="stack" value={node.stack} title={`CYCLIUM_STACK_SLUG=${node.stack}`} />
        ) : null}
        <Badge label="node" value={node.identity} title="This console's node identity" />
        <Badge
          label="mode"
          value={node.mode}
          title="The console creates episodes and defers their execution to full-mode workers"
        />
        <RefreshControl />
        <Suspense fallback={null}>
          <LiveUpdates />
        </Suspense>
        <DisplayControls />
        <UserMenu />
      </div>
    </header>
  );
}
