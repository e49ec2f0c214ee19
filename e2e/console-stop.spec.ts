import net from "node:net";
import { e2eDatabaseUrl } from "./support/env";
import { expect, test } from "./support/fixtures";
import { startWeb } from "./support/processes";

// Issue 31 item 5: the console's start command (cyclium-console) is stopped the way a container
// runtime or `kill <pid>` stops it: one SIGTERM to that process alone, not to its group. The
// server it started must end with it and its node row must say `stopped`. The signal is sent as
// soon as the server answers, while its node may still be starting (instrumentation does not
// wait for it): the case where the row used to stay `running`.
test("SIGTERM to the console's start command stops its server and marks its node stopped", async ({
  db,
}) => {
  test.setTimeout(90_000);
  const identity = `console-stop-${Date.now()}`;
  const web = await startWeb({
    databaseUrl: e2eDatabaseUrl(),
    name: "console-stop",
    env: { CYCLIUM_NODE_IDENTITY: identity },
  });
  const port = Number(new URL(web.baseUrl).port);
  process.kill(web.pid, "SIGTERM");
  await web.exited;

  // Nothing of the console is left: no process in its group, nothing on its port.
  expect(groupIsEmpty(web.pid)).toBe(true);
  expect(await portAnswers(port)).toBe(false);
  const { rows } = await db.query<{ status: string }>(
    "SELECT status FROM cyclium_nodes WHERE identity = $1",
    [identity],
  );
  expect(rows.map((row) => row.status)).toEqual(["stopped"]);
});

function groupIsEmpty(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
