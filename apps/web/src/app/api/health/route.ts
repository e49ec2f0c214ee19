import { getPool } from "@/server/db";

// Probed by the start script, e2e and load balancers: must reflect the database right now.
export const dynamic = "force-dynamic";

const noStore = { "cache-control": "no-store" };

export async function GET(): Promise<Response> {
  try {
    await getPool().query("SELECT 1");
    return Response.json({ ok: true }, { headers: noStore });
  } catch (error) {
    console.error("GET /api/health: database unreachable", error);
    return Response.json(
      { ok: false, error: "database unreachable" },
      { status: 503, headers: noStore },
    );
  }
}
