import type { Metadata } from "next";
import { connection } from "next/server";
import { FindingsLive } from "@/components/findings/findings-live";

export const metadata: Metadata = { title: "Findings" };

export default async function FindingsPage() {
  await connection();
  return <FindingsLive />;
}
