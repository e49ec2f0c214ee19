import type { Metadata } from "next";
import { ComingSoon } from "@/components/ui/coming-soon";

export const metadata: Metadata = { title: "Actors & modes" };

export default function ActorsPage() {
  return <ComingSoon page="actors" />;
}
