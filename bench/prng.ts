// A seeded pseudo-random source, so that every benchmark run generates the same chain and the figures of
// two runs (or of a change and its baseline) compare like with like. Written by hand: Math.random cannot be
// seeded, node:crypto is not repeatable, and no dependency of the project offers a seeded generator.

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** A whole number in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One of `items`, weighted toward the front: the first few are picked much more often (popular contracts). */
  skewed<T>(items: readonly T[], skew?: number): T;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: 32 bits of state, good enough spread for workload generation, and tiny. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    skewed: (items, skew = 3) => items[Math.floor(items.length * next() ** skew)]!,
    pick: (items) => items[Math.floor(items.length * next())]!,
  };
}
