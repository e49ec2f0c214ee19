#!/usr/bin/env node
// The `cyclium` command. The workspace packages ship TypeScript sources, so the CLI runs them
// through tsx's loader (registered here, resolved from this package) until they build to JS.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
