import { Icon, type TIconName } from "@/components/icons/icon";
import type { TConsolePageId } from "./console-pages";

const PAGE_ICONS: Record<TConsolePageId, TIconName> = {
  overview: "grid",
  episodes: "pulse",
  claims: "lock",
  "trigger-requests": "tray",
  actors: "person",
  triggers: "bolt",
  workflows: "flow",
  findings: "flag",
  telemetry: "bars",
  audit: "document",
  recovery: "rotate",
};

/** A page's icon in the sidebar and on its placeholder (styled by `.nav-icon`). */
export function NavIcon({ page }: { page: TConsolePageId }) {
  return <Icon name={PAGE_ICONS[page]} className="nav-icon" />;
}
