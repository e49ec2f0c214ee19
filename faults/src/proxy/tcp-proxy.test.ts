import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { TcpProxy } from "./tcp-proxy";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** An echo server behind a proxy, and a client connected through it collecting what comes back. */
async function echoThroughProxy() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const proxy = await TcpProxy.start(address.port);
  closers.push(() => proxy.close());
  const client = net.connect(proxy.port, "127.0.0.1");
  client.on("error", () => undefined);
  await new Promise<void>((resolve) => client.once("connect", resolve));
  closers.push(() => {
    client.destroy();
    return Promise.resolve();
  });
  let received = "";
  client.on("data", (chunk: Buffer) => (received += chunk.toString()));
  return { proxy, client, received: () => received };
}

async function until(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !probe(); i += 1) await sleep(10);
}

describe("TcpProxy", () => {
  it("passes bytes both ways, holds them while partitioned and delivers them on heal", async () => {
    const { proxy, client, received } = await echoThroughProxy();
    client.write("a");
    await until(() => received() === "a");
    expect(received()).toBe("a");

    proxy.partition();
    client.write("b");
    await sleep(100);
    expect(received()).toBe("a");

    proxy.heal("deliver");
    await until(() => received() === "ab");
    expect(received()).toBe("ab");
  });

  it("drops every connection on a reset heal", async () => {
    const { proxy, client } = await echoThroughProxy();
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    proxy.partition();
    client.write("held");
    proxy.heal("reset");
    await closed;
    expect(client.destroyed).toBe(true);
  });
});
