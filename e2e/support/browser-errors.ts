import type { ConsoleMessage, Page } from "@playwright/test";

/**
 * Paths whose page is the console's not-found page on purpose: their tRPC read answers 404 (a
 * NOT_FOUND error, asked once), which Chromium logs as a failed resource. Nothing else may log.
 */
const NOT_FOUND_PAGES = /^\/triggers\/nope/;

function expectedNotFound(page: Page, message: ConsoleMessage): boolean {
  return (
    NOT_FOUND_PAGES.test(new URL(page.url()).pathname) &&
    message.text().startsWith("Failed to load resource: the server responded with a status of 404")
  );
}

/**
 * Records every uncaught exception and console error of `page` in `errors` (hydration mismatches
 * and failed client fetches only show up there), but for the one 404 of a not-found page.
 */
export function collectBrowserErrors(
  page: Page,
  errors: string[],
  options: { withUrl?: boolean } = {},
): void {
  const prefix = () => (options.withUrl === true ? `${page.url()} ` : "");
  page.on("pageerror", (error) => errors.push(`${prefix()}pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error" || expectedNotFound(page, message)) return;
    errors.push(`${prefix()}console.error: ${message.text()}`);
  });
}
