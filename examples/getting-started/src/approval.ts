// An approval step: the expense waits for a person's decision (holding no slot; any worker
// resumes it, even after a restart), then a one-second cooling-off sleep, then the payout.
import {
  createClient,
  defineActor,
  done,
  wait,
  waitFor,
  type Deployment,
  type Strategy,
} from "@cyclium/core";
import { z } from "zod";

const ZExpense = z.object({ amount: z.number().positive(), by: z.string().min(1) });
const ZDecision = z.object({ approved: z.boolean(), comment: z.string().min(1) });

type ExpenseState =
  | { phase: "ask"; amount: number }
  | { phase: "decide"; amount: number }
  | { phase: "pay"; amount: number; approvedBy: string };

const reviewExpense: Strategy<z.infer<typeof ZExpense>, ExpenseState> = {
  init: (_ctx, input) => ({ phase: "ask", amount: input.amount }),
  step: (state, ctx) => {
    switch (state.phase) {
      case "ask":
        // Checkpoints `state`, goes `waiting` and frees its slot until the signal (or a day).
        return waitFor({
          signal: "decision",
          timeoutMs: 24 * 60 * 60 * 1000,
          state: { phase: "decide", amount: state.amount },
        });
      case "decide": {
        const wakeup = ctx.wakeup; // what woke it: the signal with its payload, or the timeout
        if (wakeup?.kind !== "signal") return done({ paid: false, reason: "no decision" });
        const decision = ZDecision.parse(wakeup.payload);
        if (!decision.approved) return done({ paid: false, reason: decision.comment });
        return wait({ ms: 1_000, state: { ...state, phase: "pay", approvedBy: wakeup.sentBy } });
      }
      case "pay":
        return done({ paid: true, amount: state.amount, approvedBy: state.approvedBy });
    }
  },
};

export const expenses = defineActor({
  identifier: "expenses",
  expectations: [
    {
      id: "review",
      strategy: reviewExpense,
      trigger: { manual: true },
      input: ZExpense,
      // The signals its episodes accept: a delivery's payload is checked against the schema.
      signals: { decision: ZDecision },
    },
  ],
});

// From any process (a web handler, a chat bot): approve a waiting expense and wait for its end.
export async function approveExpense(options: {
  databaseUrl: string;
  deployment: Deployment;
  episodeId: string;
  by: string;
}): Promise<unknown> {
  const client = createClient(
    { connectionString: options.databaseUrl },
    { deployment: options.deployment, by: options.by },
  );
  try {
    const sent = await client.signal(
      options.episodeId,
      "decision",
      { approved: true, comment: "within budget" },
      { idempotencyKey: `approve:${options.episodeId}` }, // a resend delivers nothing twice
    );
    if (sent.kind !== "delivered" && sent.kind !== "duplicate") throw new Error(sent.kind);
    const outcome = await client.result(options.episodeId, { timeoutMs: 30_000 });
    return outcome.kind === "completed" ? outcome.result : outcome;
  } finally {
    await client.close();
  }
}
