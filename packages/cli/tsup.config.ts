import { defineConfig } from "tsup";

// The `cyclium` command as one ES module with a shebang: the installed package's bin runs it with
// plain Node (the checkout's bin/cyclium.mjs runs the sources through tsx instead). Its own
// dependencies stay imports. No declarations: the package has no library API.
export default defineConfig({
  entry: { cyclium: "src/main.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  clean: true,
  banner: { js: "#!/usr/bin/env node" },
});
