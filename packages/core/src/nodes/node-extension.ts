import type { ActorRegistry } from "../actors/index";
import type { Bus, PgListener } from "../bus/index";
import type { WorkClaims } from "../claims/index";
import type { ModeController } from "../modes/index";
import type { NodeKind } from "./node";
import type { ActorHost } from "../runtime/index";
import type { Logger, Telemetry } from "../telemetry/index";
import type pg from "pg";

/** Everything a node runs on, for extensions (recovery timers, the workflow engine, triggers). */
export interface CycliumNodeContext {
  readonly db: pg.Pool;
  readonly kind: NodeKind;
  readonly nodeIdentity: string;
  readonly stack: string | null;
  readonly env: string | null;
  readonly host: ActorHost;
  readonly registry: ActorRegistry;
  readonly bus: Bus;
  readonly listener: PgListener;
  readonly modes: ModeController;
  readonly claims: WorkClaims;
  readonly leaseSeconds: number;
  readonly logger: Logger;
  readonly telemetry: Telemetry;
}

export interface NodeExtensionHandle {
  stop(): void | Promise<void>;
}

/**
 * A component that runs with the node: started once the host, triggers and poller run (in list
 * order), stopped first on shutdown (in reverse order), before running episodes drain. This is
 * where recovery's delayed sweep timer, the workflow engine and fan-out triggers plug in.
 */
export interface NodeExtension {
  readonly name: string;
  start(node: CycliumNodeContext): void | NodeExtensionHandle | Promise<void | NodeExtensionHandle>;
}
