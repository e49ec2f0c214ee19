import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Episodes" };

export default function EpisodesPage() {
  return <ComingSoon page="episodes" />;
}
