import styles from "./admin.module.css";
import { mutationErrorMessage } from "./mutation-error";

/** Why an admin form's input was not taken: the client's check first, else the server's error. */
export function FormError({
  invalid,
  error,
  testId,
}: {
  invalid: string | null;
  error: unknown;
  testId: string;
}) {
  return invalid || error ? (
    <div className={styles.formError} role="alert" data-testid={testId}>
      {invalid ?? mutationErrorMessage(error)}
    </div>
  ) : null;
}
