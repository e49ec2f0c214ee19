import Link from "next/link";
import { signOutAction } from "@/app/sign-in/actions";
import { getCurrentPrincipal } from "@/server/auth/current-principal";
import styles from "./user-menu.module.css";

/** Who is signed in, with what role, and the way out. Admins also get the admin page. */
export async function UserMenu() {
  const principal = await getCurrentPrincipal();
  if (principal === null) return null;
  return (
    <div className={styles.menu} data-testid="user-menu">
      {principal.role === "admin" ? (
        <Link href="/admin" className={styles.link}>
          Admin
        </Link>
      ) : null}
      <span className={styles.who} title={`Signed in as ${principal.name}`}>
        <span className={styles.name}>{principal.name}</span>
        <span className={styles.role} data-role={principal.role}>
          {principal.role}
        </span>
      </span>
      <form action={signOutAction}>
        <button type="submit" className={styles.signOut}>
          Sign out
        </button>
      </form>
    </div>
  );
}
