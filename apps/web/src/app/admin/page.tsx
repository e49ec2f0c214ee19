import type { Metadata } from "next";
import { connection } from "next/server";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { getQueryClient, HydrateClient, trpc } from "@/server/trpc/rsc";
import { TokensPanel } from "./tokens-panel";
import { UsersPanel } from "./users-panel";

export const metadata: Metadata = { title: "Admin" };

export default async function AdminPage() {
  await connection();
  const principal = await getCurrentPrincipal();
  const header = (
    <PageHeader
      title="Admin"
      summary="Who can use the console and with which role, and the API tokens automation signs in with."
    />
  );
  if (principal?.role !== "admin") {
    return (
      <>
        {header}
        <EmptyState icon="lock" title="Admins only" testId="admin-refused">
          You are signed in as <strong>{principal?.role ?? "nobody"}</strong>. Ask an admin to
          change your role if you need to manage users or API tokens.
        </EmptyState>
      </>
    );
  }
  const queryClient = getQueryClient();
  await Promise.all([
    queryClient.prefetchQuery(trpc.admin.users.list.queryOptions()),
    queryClient.prefetchQuery(trpc.admin.tokens.list.queryOptions()),
  ]);
  return (
    <HydrateClient>
      {header}
      <UsersPanel currentUserId={principal.id} />
      <TokensPanel />
    </HydrateClient>
  );
}
