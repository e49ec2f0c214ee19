"use client";

import { PageHeader } from "@/components/ui/page-header";

// Rendered when a server component throws. Next passes only the digest of server errors to the
// browser (never the message or stack); the full error is in the server log under that digest.
export default function ConsoleError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <>
      <PageHeader
        title="Something went wrong"
        summary="The console could not render this page. The server log has the details."
      />
      <div className="callout callout-error" role="alert">
        {error.digest ? (
          <>
            Reference <code>{error.digest}</code> in the server log.
          </>
        ) : (
          "An unexpected error occurred."
        )}
      </div>
      <button type="button" className="button" onClick={reset}>
        Try again
      </button>
    </>
  );
}
