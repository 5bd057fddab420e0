// A context key the settings table does not know is a mistake (a typo such as `-c alertEmail=…` would
// otherwise leave alerts unsent without a word), except the keys the CDK itself keeps in context: feature
// flags (`@aws-cdk/…`), its own settings (`aws:cdk:…`) and cached lookups (`availability-zones:…`).

/** The CDK's own keys all carry one of these characters; the settings table's keys are plain camelCase. */
const CDK_KEY = /[@:\-/.]/;

/**
 * Edit distance with transpositions (optimal string alignment), ignoring case: small enough to write here,
 * and the project has no string-distance library to reuse.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j += 1) d[0]![j] = j;
  for (let i = 1; i <= s.length; i += 1) {
    for (let j = 1; j <= t.length; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[s.length]![t.length]!;
}

/** The known key closest to `key`, when it is close enough to be what was meant. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  // A third of the longer name: catches a dropped "s", a swapped pair, "pollSecond" or "memory" for "memorySize".
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(key, name);
    const prefix = name.toLowerCase().startsWith(key.toLowerCase()) && key.length >= 4;
    const near = distance <= Math.max(2, Math.floor(Math.max(key.length, name.length) / 3)) || prefix;
    if (near && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** One problem per unknown key, each with a did-you-mean when a known key is close. */
export function unknownKeyProblems(given: readonly string[], known: readonly string[]): string[] {
  return given
    .filter((key) => !CDK_KEY.test(key) && !known.includes(key))
    .map((key) => {
      const suggestion = closestKey(key, known);
      return suggestion
        ? `${key}: is not a setting; did you mean ${suggestion}?`
        : `${key}: is not a setting; the settings are ${[...known].sort().join(', ')}`;
    });
}
