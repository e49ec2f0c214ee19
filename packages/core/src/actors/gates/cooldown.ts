/**
 * Per-subject cooldown, in this node's memory. It is started only when an episode really fired
 * (created here, or deduplicated because another node created it for the same event), so a
 * filtered or debounced event never starts it. Every node sees the same events and the same
 * fires, so every node's cooldown starts within milliseconds of the others'.
 */
export class Cooldown {
  readonly #until = new Map<string, number>();

  constructor(
    private readonly cooldownMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  active(subject: string): boolean {
    const until = this.#until.get(subject);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.#until.delete(subject);
    return false;
  }

  start(subject: string): void {
    this.#until.set(subject, this.now() + this.cooldownMs);
  }
}
