import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

/**
 * Every unknown address and every detail page whose id names nothing (`/triggers/nope`, a deleted
 * episode): one page, rendered once, instead of a query retrying a NOT_FOUND forever.
 */
export default function NotFound() {
  return (
    <>
      <div className="page-header">
        <div>
          <h1 className="page-title">Not found</h1>
          <p className="page-summary">Nothing in this console has this address.</p>
        </div>
      </div>
      <EmptyState icon="help" title="No such page or record" testId="not-found">
        <p>
          The trigger, episode or workflow instance may have been removed, or belongs to another
          database. Lists only show what this env holds.
        </p>
        <p className="not-found-links">
          <Link href="/" className="button">
            Back to the overview
          </Link>{" "}
          <Link href="/episodes" className="button">
            Episodes
          </Link>{" "}
          <Link href="/triggers" className="button">
            Triggers
          </Link>
        </p>
      </EmptyState>
    </>
  );
}
