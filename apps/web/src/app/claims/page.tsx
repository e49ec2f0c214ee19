import type { Metadata } from "next";
import { connection } from "next/server";
import { ClaimsLive } from "@/components/claims/claims-live";

export const metadata: Metadata = { title: "Work claims" };

export default async function ClaimsPage() {
  await connection();
  return <ClaimsLive />;
}
