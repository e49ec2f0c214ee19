import { triggerRoutes } from "@/server/rest/trigger-routes";

export const dynamic = "force-dynamic";
export const GET = triggerRoutes.inspect;
