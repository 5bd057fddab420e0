// How long ago, as `--status` says it: seconds under two minutes, then minutes, hours, days.

/** `45 s`, `12 min`, `5 h`, `3 days`. */
export function duration(totalSeconds: number): string {
  if (totalSeconds < 120) return `${totalSeconds} s`;
  if (totalSeconds < 2 * 3600) return `${Math.round(totalSeconds / 60)} min`;
  if (totalSeconds < 2 * 86_400) return `${Math.round(totalSeconds / 3600)} h`;
  return `${Math.round(totalSeconds / 86_400)} days`;
}
