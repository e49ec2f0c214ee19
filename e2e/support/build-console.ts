// `pnpm test:e2e`'s build step: the console's production build for the e2e deployment, made
// every time (CI must not trust file times), so the global setup then finds it up to date.
import { buildWeb } from "./web-build";

buildWeb();
