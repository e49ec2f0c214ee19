import {
  createApiToken,
  listApiTokens,
  revokeApiToken,
  createUser,
  listUsers,
  passwordProblem,
  setUserDisabled,
  setUserRole,
} from "@cyclium/core/console";
import { audited } from "../../audit/audited";
import { hashPassword } from "../../auth/password-hash";
import { adminProcedure, createTrpcRouter } from "../init";
import { toWire } from "../to-wire";
import {
  ZApiToken,
  ZCreateApiTokenInput,
  ZCreatedApiToken,
  ZCreateUserInput,
  ZRevokeApiTokenInput,
  ZSetUserDisabledInput,
  ZSetUserRoleInput,
  ZUser,
} from "./admin.schema";

const usersRouter = createTrpcRouter({
  list: adminProcedure
    .output(ZUser.array())
    .query(async ({ ctx }) => toWire(await listUsers({ db: ctx.db }))),
  create: adminProcedure
    // The form's schema plus core's whole password rule (strength too), as the CLI applies it.
    .input(
      ZCreateUserInput.superRefine((input, ctx) => {
        const problem = passwordProblem(input.password, [input.email, input.name]);
        if (problem !== null)
          ctx.addIssue({ code: "custom", path: ["password"], message: problem });
      }),
    )
    .output(ZUser)
    .mutation(async ({ ctx, input }) => {
      // Hashed before the transaction: ~25 ms of CPU that need not hold a connection.
      const { password, ...user } = input;
      const passwordHash = await hashPassword(password);
      return toWire(
        await audited(
          ctx,
          { action: "admin.users.create", target: input.email, detail: { role: input.role } },
          (tx) => createUser({ db: tx, ...user, passwordHash }),
        ),
      );
    }),
  setRole: adminProcedure
    .input(ZSetUserRoleInput)
    .output(ZUser)
    .mutation(async ({ ctx, input }) =>
      toWire(
        await audited(
          ctx,
          { action: "admin.users.setRole", target: input.userId, detail: { role: input.role } },
          (tx) => setUserRole({ db: tx, ...input }),
        ),
      ),
    ),
  setDisabled: adminProcedure
    .input(ZSetUserDisabledInput)
    .output(ZUser)
    .mutation(async ({ ctx, input }) =>
      toWire(
        await audited(
          ctx,
          {
            action: "admin.users.setDisabled",
            target: input.userId,
            detail: { disabled: input.disabled },
          },
          (tx) => setUserDisabled({ db: tx, ...input }),
        ),
      ),
    ),
});

const tokensRouter = createTrpcRouter({
  list: adminProcedure
    .output(ZApiToken.array())
    .query(async ({ ctx }) => toWire(await listApiTokens({ db: ctx.db }))),
  create: adminProcedure
    .input(ZCreateApiTokenInput)
    .output(ZCreatedApiToken)
    .mutation(async ({ ctx, input }) =>
      toWire(
        await audited(
          ctx,
          {
            action: "admin.tokens.create",
            target: input.name,
            detail: { role: input.role, tenants: input.tenants ?? [] },
          },
          (tx) => createApiToken({ db: tx, ...input, createdBy: ctx.principal.id }),
        ),
      ),
    ),
  revoke: adminProcedure
    .input(ZRevokeApiTokenInput)
    .output(ZApiToken)
    .mutation(async ({ ctx, input }) =>
      toWire(
        await audited(ctx, { action: "admin.tokens.revoke", target: input.tokenId }, (tx) =>
          revokeApiToken({ db: tx, ...input }),
        ),
      ),
    ),
});

export const adminRouter = createTrpcRouter({ users: usersRouter, tokens: tokensRouter });
