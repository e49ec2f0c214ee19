import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CycliumMark } from "@/components/shell/cyclium-mark";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import { safeNextPath } from "@/server/auth/safe-redirect";
import { getNodeInfo } from "@/server/node-info";
import { SignInForm } from "./sign-in-form";
import styles from "./sign-in.module.css";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const next = safeNextPath((await searchParams).next);
  if ((await getCurrentPrincipal()) !== null) redirect(next);
  const node = getNodeInfo();
  return (
    <div className={styles.screen}>
      <div className={styles.card}>
        <div className={styles.brand}>
          <CycliumMark />
          <span className={styles.brandName}>Cyclium</span>
          <span className={styles.brandTag}>console</span>
        </div>
        <h1 className={styles.title}>Sign in</h1>
        <p className={styles.lead}>
          Operator console for env <code>{node.env ?? "default"}</code>
        </p>
        <SignInForm next={next} />
      </div>
      <p className={styles.footnote}>
        Accounts are created by an admin. Sessions end after 30 minutes of inactivity or 12 hours.
      </p>
    </div>
  );
}
