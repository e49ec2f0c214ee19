import { ROLES } from "@/server/auth/principal";
import styles from "./admin.module.css";

/** The role of a new user or API token, viewer unless the admin picks another. */
export function RoleSelect({ label }: { label: string }) {
  return (
    <select name="role" aria-label={label} defaultValue="viewer" className={styles.select}>
      {ROLES.map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </select>
  );
}
