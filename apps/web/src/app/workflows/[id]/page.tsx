import type { Metadata } from "next";
import { connection } from "next/server";
import { EmptyState } from "@/components/ui/empty-state";
import { WorkflowInstance } from "@/components/workflows/workflow-instance";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { roleAtLeast } from "@/server/auth/principal";
import { ZUuid } from "@/server/trpc/routers/shared.schema";

export const metadata: Metadata = { title: "Workflow instance" };

export default async function WorkflowInstancePage({
  params,
}: {
  params: Promise<{ id: string }>;
}) {
  await connection();
  const { id } = await params;
  if (!ZUuid.safeParse(id).success) {
    return (
      <EmptyState icon="?" title="Not a workflow instance id">
        <code>{id}</code> is not an instance id (a UUID).
      </EmptyState>
    );
  }
  const principal = await getCurrentPrincipal();
  // Hiding the buttons is a courtesy; the procedures check the role themselves.
  const canOperate = principal !== null && roleAtLeast(principal.role, "operator");
  return <WorkflowInstance id={id} canOperate={canOperate} />;
}
