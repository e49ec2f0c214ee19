import { listAuditEntries } from "@cyclium/core/console";
import { createTrpcRouter, viewerProcedure } from "../init";
import { toWire } from "../to-wire";
import { ZAuditListInput } from "./audit-log.schema";

export const auditLogRouter = createTrpcRouter({
  list: viewerProcedure.input(ZAuditListInput).query(async ({ ctx, input }) =>
    toWire(
      await listAuditEntries({
        db: ctx.db,
        filters: {
          action: input.action,
          principal: input.principal,
          outcome: input.outcome,
          target: input.target,
        },
        cursor: input.cursor,
        direction: input.direction,
        limit: input.limit,
      }),
    ),
  ),
});
