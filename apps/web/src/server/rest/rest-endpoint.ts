/**
 * One REST v1 endpoint: authenticate (Bearer API token, or the console's session cookie),
 * enforce the same-origin rule on writes, check the role, validate the path with zod, run the
 * handler, map its failures (rest-response.ts). Every refusal, reads and rejected input
 * included, is written to the audit log (anonymous ones capped: audit/audited.ts).
 * Route files only bind a spec to the HTTP method; see trigger-endpoints.ts.
 */
import { apiTokenReachesTenant } from "@cyclium/core/console";
import type pg from "pg";
import { z } from "zod";
import { countBlockedRefusal, recordRefusal, type TRefusalReason } from "../audit/audited";
import { roleAtLeast, type TPrincipal, type TRole } from "../auth/principal";
import { describeInputProblem, findInputProblem } from "../input/untrusted-input";
import { noteRefusal, refusalBlock } from "../auth/refusal-limiter";
import { readRequestInfo, type TRequestInfo } from "../auth/request-info";
import { resolvePrincipal } from "../auth/resolve-principal";
import { bodyRefusalOf } from "./read-json-body";
import { finishRestResponse, restError, restErrorFromException, restJson } from "./rest-response";

export interface TRestDeps {
  getDb: () => pg.Pool;
}

export interface TRestCall<P> {
  request: Request;
  params: P;
  principal: TPrincipal;
  db: pg.Pool;
  info: TRequestInfo;
}

export interface TRestEndpointSpec<P> {
  method: "GET" | "POST" | "PATCH" | "PUT";
  role: TRole;
  /** Audit action of a write, e.g. `triggers.fire` (the same name the console's procedure uses). */
  action: string;
  params: z.ZodType<P>;
  handle: (call: TRestCall<P>) => Promise<unknown>;
  /** Error codes renamed in this endpoint's answers (Cloacina's names for the trigger API). */
  errorCodes?: Readonly<Record<string, string>>;
}

/** The second argument Next.js passes to a route handler. */
export interface TRouteContext {
  params: Promise<Record<string, string | string[] | undefined>>;
}

export type TRouteHandler = (request: Request, context: TRouteContext) => Promise<Response>;

export function restEndpoint<P>(spec: TRestEndpointSpec<P>, deps: TRestDeps): TRouteHandler {
  const answer = answerOf(spec, deps);
  return async (request, context) =>
    finishRestResponse(await answer(request, context), request, spec.errorCodes);
}

function answerOf<P>(spec: TRestEndpointSpec<P>, deps: TRestDeps): TRouteHandler {
  return async (request, context) => {
    try {
      const db = deps.getDb();
      const info = readRequestInfo(request.headers);
      const rawParams = await context.params;
      const refuse = async (
        status: number,
        code: string,
        message: string,
        reason: TRefusalReason,
        principal: TPrincipal | null,
        detail: Record<string, unknown> = {},
      ) => {
        await noteRefusal(info.ip);
        // Reads too (issue 29, OWASP ASVS V16): a refused read is a probe worth seeing.
        await recordRefusal(db, {
          principal,
          action: spec.action,
          target: typeof rawParams.name === "string" ? rawParams.name : null,
          ip: info.ip,
          reason,
          detail: { via: "rest", method: spec.method, tenant: rawParams.t, ...detail },
        });
        return restError(status, code, message);
      };
      const refuseInput = (
        message: string,
        field: string,
        principal: TPrincipal,
        code = "invalid_input",
      ) =>
        refuse(400, code, message, "invalid_input", principal, {
          field,
          message: message.slice(0, 500),
        });
      // Past its budget of refusals, an address gets 429 for credential-less calls before any
      // database work (auth/refusal-limiter.ts).
      const retryAfter = await refusalBlock(info.ip, request.headers);
      if (retryAfter !== null) {
        countBlockedRefusal(db, info.ip);
        const response = restError(
          429,
          "too_many_refusals",
          `Too many refused requests from this address; try again in ${retryAfter} s.`,
        );
        response.headers.set("retry-after", String(retryAfter));
        return response;
      }
      const crossOrigin = (principal: TPrincipal | null) =>
        refuse(403, "cross_origin", "Cross-origin request refused.", "cross_origin", principal);

      // A browser on another site is refused before anything runs, but its credential is still
      // read (without counting as activity) so the audit row names who it rode on rather than
      // `anonymous` (issue 13).
      const crossSite = spec.method !== "GET" && info.origin === "cross";
      const principal = await resolvePrincipal({
        db,
        headers: request.headers,
        allowApiTokens: true,
        slide: !crossSite,
      });
      if (crossSite) return await crossOrigin(principal);
      if (principal === null) {
        return await refuse(
          401,
          "unauthenticated",
          "Authentication required: send `Authorization: Bearer <API token>` (an admin creates tokens in the console).",
          "unauthenticated",
          null,
        );
      }
      // A session cookie rides along on any request the browser makes; only the console's own
      // pages may use it to change state. A Bearer token is never sent implicitly.
      if (spec.method !== "GET" && principal.kind === "user" && info.origin !== "same") {
        return await crossOrigin(principal);
      }
      // Cloacina's 403 for a caller that may not address this tenant: a token limited to envs.
      const tenant = rawParams.t;
      if (typeof tenant === "string" && !apiTokenReachesTenant(principal.tenants ?? [], tenant)) {
        return await refuse(
          403,
          "tenant_access_denied",
          `This API token may not access tenant "${tenant}".`,
          "tenant",
          principal,
        );
      }
      if (!roleAtLeast(principal.role, spec.role)) {
        return await refuse(
          403,
          "forbidden",
          `This needs the ${spec.role} role; this ${principal.kind === "token" ? "API token" : "user"} has ${principal.role}.`,
          "role",
          principal,
        );
      }
      const problem = findInputProblem({
        ...rawParams,
        ...Object.fromEntries(new URL(request.url).searchParams),
      });
      if (problem !== null) {
        return await refuseInput(describeInputProblem(problem), problem.path, principal);
      }
      const params = spec.params.safeParse(rawParams);
      if (!params.success) {
        const field = params.error.issues[0]?.path.map(String).join(".") || "(path)";
        return await refuseInput(z.prettifyError(params.error), field, principal);
      }
      let body: unknown;
      try {
        body = await spec.handle({ request, params: params.data, principal, db, info });
      } catch (error) {
        // A body refused before the handler's audited work began left no row of its own.
        const bodyRefusal = bodyRefusalOf(error);
        if (bodyRefusal === null) throw error;
        return await refuseInput(
          bodyRefusal.message,
          bodyRefusal.field,
          principal,
          bodyRefusal.code,
        );
      }
      // A handler answers with a Response when the status is not 200 (a create's 201).
      return body instanceof Response ? body : restJson(body);
    } catch (error) {
      return restErrorFromException(error, `${spec.method} ${new URL(request.url).pathname}`);
    }
  };
}
