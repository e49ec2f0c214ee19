import pg from "pg";

/**
 * `count` separate connections to `url`, for concurrency tests: each acquire or insert must race
 * on its own session, as it would from different nodes.
 */
export async function openClients(
  url: string,
  count: number,
): Promise<{ clients: pg.Client[]; close: () => Promise<void> }> {
  const clients = Array.from({ length: count }, () => new pg.Client({ connectionString: url }));
  await Promise.all(clients.map((client) => client.connect()));
  return {
    clients,
    close: async () => {
      await Promise.all(clients.map((client) => client.end()));
    },
  };
}
