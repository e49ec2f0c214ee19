/**
 * Fisher-Yates on a copy. Each node sweeps its stale list in its own random order so that nodes
 * racing for the same orphans win different ones: in the same order, the node with the lowest
 * database latency would win the first claim, then the second, and so on down the whole list.
 */
export function shuffle<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = copy[i] as T;
    copy[i] = copy[j] as T;
    copy[j] = a;
  }
  return copy;
}
