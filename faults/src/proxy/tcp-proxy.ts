import net from "node:net";

/** How a partition ends: packets held meanwhile arrive late, or every connection is reset. */
export type HealMode = "deliver" | "reset";

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** Bytes held while partitioned, per direction, in arrival order. */
  toUpstream: Buffer[];
  toClient: Buffer[];
  /** A side closed while partitioned: its FIN, too, waits for the heal. */
  closedWhilePartitioned: boolean;
}

/**
 * A TCP proxy between one worker and PostgreSQL that the orchestrator can partition. While
 * partitioned nothing crosses in either direction, and no FIN or RST either: both ends see a
 * silent peer, as on a real network partition, new connections hang in their handshake with the
 * server, and queries already sent wait for an answer that does not come. `heal("deliver")` then
 * forwards everything that was held, so writes the worker sent before and during the partition
 * reach the database late (the zombie writes fencing must reject); `heal("reset")` drops every
 * connection instead.
 */
export class TcpProxy {
  readonly #server: net.Server;
  readonly #targetPort: number;
  readonly #pairs = new Set<Pair>();
  #partitioned = false;

  private constructor(server: net.Server, targetPort: number) {
    this.#server = server;
    this.#targetPort = targetPort;
  }

  static async start(targetPort: number): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server, targetPort);
    server.on("connection", (client) => proxy.#accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    return proxy;
  }

  get port(): number {
    const address = this.#server.address();
    if (address === null || typeof address === "string") throw new Error("proxy not listening");
    return address.port;
  }

  get partitioned(): boolean {
    return this.#partitioned;
  }

  partition(): void {
    this.#partitioned = true;
  }

  heal(mode: HealMode): void {
    this.#partitioned = false;
    for (const pair of [...this.#pairs]) {
      if (mode === "reset" || pair.closedWhilePartitioned) {
        this.#drop(pair);
        continue;
      }
      for (const chunk of pair.toUpstream.splice(0)) pair.upstream.write(chunk);
      for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
    }
  }

  async close(): Promise<void> {
    for (const pair of [...this.#pairs]) this.#drop(pair);
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(client: net.Socket): void {
    const upstream = net.connect(this.#targetPort, "127.0.0.1");
    const pair: Pair = {
      client,
      upstream,
      toUpstream: [],
      toClient: [],
      closedWhilePartitioned: false,
    };
    this.#pairs.add(pair);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on("data", (chunk: Buffer) => this.#forward(pair, chunk, "toUpstream"));
    upstream.on("data", (chunk: Buffer) => this.#forward(pair, chunk, "toClient"));
    const onEnd = (): void => {
      if (this.#partitioned) pair.closedWhilePartitioned = true;
      else this.#drop(pair);
    };
    for (const socket of [client, upstream]) {
      socket.on("error", onEnd);
      socket.on("close", onEnd);
    }
  }

  #forward(pair: Pair, chunk: Buffer, direction: "toUpstream" | "toClient"): void {
    if (this.#partitioned) {
      pair[direction].push(chunk);
      return;
    }
    const target = direction === "toUpstream" ? pair.upstream : pair.client;
    if (!target.destroyed) target.write(chunk);
  }

  #drop(pair: Pair): void {
    if (!this.#pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream.destroy();
  }
}
