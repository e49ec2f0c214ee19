import { listAuditEntries } from "../../queries/audit/list-audit-entries";
import { createTrpcRouter, viewerProcedure } from "../init";
import { ZAuditListInput } from "./audit-log.schema";

export const auditLogRouter = createTrpcRouter({
  list: viewerProcedure.input(ZAuditListInput).query(({ ctx, input }) =>
    listAuditEntries({
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
});
