"use server";

// Server actions are POST-only and Next.js refuses them unless Origin matches Host, so the
// sign-in and sign-out forms get the same-origin rule of every other state change.
import { assertNever } from "@cyclium/core/console";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { readRequestInfo } from "@/server/auth/request-info";
import { safeNextPath } from "@/server/auth/safe-redirect";
import { isHttps, SESSION_COOKIE, sessionCookieOptions } from "@/server/auth/session-cookie";
import { signIn, signOut, ZSignInInput } from "@/server/auth/sign-in";
import { getPool } from "@/server/db";
import { formText } from "@/lib/form-text";

export interface TSignInFormState {
  error: string | null;
  email: string;
}

export async function signInAction(
  _previous: TSignInFormState,
  form: FormData,
): Promise<TSignInFormState> {
  const email = formText(form, "email");
  const parsed = ZSignInInput.safeParse({ email, password: form.get("password") });
  if (!parsed.success) {
    return { error: parsed.error.issues[0]?.message ?? "Check your input.", email };
  }
  const requestHeaders = await headers();
  const request = readRequestInfo(requestHeaders);
  const cookieStore = await cookies();
  const result = await signIn({
    db: getPool(),
    input: parsed.data,
    ip: request.ip,
    userAgent: request.userAgent,
    previousToken: cookieStore.get(SESSION_COOKIE)?.value ?? null,
  });
  switch (result.kind) {
    case "rate_limited":
      return {
        error: `Too many attempts. Try again in ${Math.ceil(result.retryAfterSeconds / 60)} min.`,
        email,
      };
    case "invalid_credentials":
      // One message for unknown email, wrong password and disabled account: no account probing.
      return { error: "Email or password is incorrect.", email };
    case "signed_in":
      cookieStore.set(SESSION_COOKIE, result.token, sessionCookieOptions(isHttps(requestHeaders)));
      return redirect(safeNextPath(form.get("next")));
    default:
      return assertNever(result, "sign-in result");
  }
}

export async function signOutAction(): Promise<void> {
  const requestHeaders = await headers();
  const cookieStore = await cookies();
  const token = cookieStore.get(SESSION_COOKIE)?.value;
  if (token) await signOut({ db: getPool(), token, ip: readRequestInfo(requestHeaders).ip });
  cookieStore.delete(SESSION_COOKIE);
  redirect("/sign-in");
}
