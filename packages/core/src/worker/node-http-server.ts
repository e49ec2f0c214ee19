import http from "node:http";
import type { Logger } from "pino";
import type { Registry } from "prom-client";

export interface NodeHttpServerOptions {
  port: number;
  registry: Registry;
  /** Resolves when the node is healthy (database reachable); rejects with the reason otherwise. */
  checkHealth: () => Promise<Record<string, unknown>>;
  logger: Logger;
}

export interface NodeHttpServer {
  port: number;
  close(): Promise<void>;
}

/** `GET /healthz` and `GET /metrics` (Prometheus text format) for a worker node. */
export async function startNodeHttpServer(options: NodeHttpServerOptions): Promise<NodeHttpServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path === "/healthz") {
      options.checkHealth().then(
        (details) => send(res, 200, { ok: true, ...details }),
        (error: unknown) => {
          options.logger.warn({ err: error }, "health check failed");
          send(res, 503, { ok: false, error: "database unreachable" });
        },
      );
      return;
    }
    if (path === "/metrics") {
      options.registry.metrics().then(
        (text) => res.writeHead(200, { "content-type": options.registry.contentType }).end(text),
        (error: unknown) => {
          options.logger.error({ err: error }, "metrics collection failed");
          res.writeHead(500).end();
        },
      );
      return;
    }
    send(res, 404, { error: "not found" });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, "0.0.0.0", () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
