import type { Metadata } from "next";
import { connection } from "next/server";
import { WorkflowsLive } from "@/components/workflows/workflows-live";

export const metadata: Metadata = { title: "Workflows" };

export default async function WorkflowsPage() {
  await connection();
  return <WorkflowsLive />;
}
