/** The known names closest to what the user typed, for "did you mean" hints. */
export function closest(input: string, known: readonly string[], max = 2): string[] {
  const scored = known.map((name) => ({
    name,
    distance: editDistance(input.toLowerCase(), name.toLowerCase()),
  }));
  const limit = Math.max(2, Math.floor(input.length / 3));
  return scored
    .filter((s) => s.distance <= limit || s.name.includes(input.toLowerCase()))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, max)
    .map((s) => s.name);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
