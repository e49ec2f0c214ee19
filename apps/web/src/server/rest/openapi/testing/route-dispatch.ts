// A `fetch` that answers the way the console's server does, in process: the proxy first
// (src/proxy.ts: it rewrites Cloacina's `/v1/...` to `/api/v1/...`), then the route file whose
// path matches, through its exported handler for the method. Route modules use the process's
// pool and console runtime (server/db.ts, runtime/console-runtime.ts), which the test sets.
import { NextRequest } from "next/server";
import { proxy } from "../../../../proxy";
import type { TRouteHandler } from "../../rest-endpoint";
import { listRouteFiles } from "./route-files";

const routes = listRouteFiles();

export async function dispatchToRoutes(input: Request): Promise<Response> {
  const routed = await proxy(
    new NextRequest(input.url, { method: input.method, headers: input.headers }),
  );
  const rewrite = routed.headers.get("x-middleware-rewrite");
  const url = new URL(rewrite ?? input.url);
  if (rewrite === null && routed.headers.get("x-middleware-next") === null) return routed;
  for (const route of routes) {
    const match = route.pattern.exec(url.pathname);
    if (match === null) continue;
    const module = (await import(route.file)) as Record<string, TRouteHandler | undefined>;
    const handler = module[input.method];
    if (handler === undefined) return new Response(null, { status: 405 });
    const params = Object.fromEntries(
      route.paramNames.map((name, index) => {
        const value = decodeURIComponent(match[index + 1] ?? "");
        return [
          name,
          route.catchAll && index === route.paramNames.length - 1 ? value.split("/") : value,
        ];
      }),
    );
    const body = input.body === null ? undefined : await input.arrayBuffer();
    const request = new Request(url, {
      method: input.method,
      headers: input.headers,
      ...(body === undefined ? {} : { body }),
    });
    return handler(request, { params: Promise.resolve(params) });
  }
  throw new Error(`No route file answers ${url.pathname}`);
}
