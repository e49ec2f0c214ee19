import { defineConfig } from "@playwright/test";

// `playwright install` cannot download browsers here; Debian's chromium is used instead
// (`apt-get install chromium`, done by .ci/run on CI).
const chromiumPath = process.env.CYCLIUM_E2E_CHROMIUM ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  forbidOnly: !!process.env.CI,
  // One web app and one database per run; tests seed rows and read them back in order.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  globalSetup: "./global-setup.ts",
  use: {
    // Set by global-setup.ts before the workers start; they inherit it.
    baseURL: process.env.CYCLIUM_E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    viewport: { width: 1440, height: 900 },
    browserName: "chromium",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
