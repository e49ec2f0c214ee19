import type { Metadata } from "next";
import { connection } from "next/server";
import { EpisodesLive } from "@/components/episodes/episodes-live";

export const metadata: Metadata = { title: "Episodes" };

export default async function EpisodesPage() {
  // Live data: always per request. The list is read by the browser (filters and the page
  // cursor live in the URL) and refreshed every 2 s.
  await connection();
  return <EpisodesLive />;
}
