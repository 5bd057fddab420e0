// A process's own peak resident set, for the bench's child processes. getrusage's maxRSS is not it on Linux: a
// child is forked from the bench process with that process's pages mapped, and the kernel carries the fork's
// high-water mark through exec into the child's maxRSS, so a child of a 190 MB bench process reported about
// 190 MB whatever it did itself. /proc/self/status's VmHWM is the peak of the process's own address space since
// its exec. Elsewhere (no /proc), maxRSS is the best there is.
import { readFileSync } from 'node:fs';

/** Peak resident set of this process since its exec, in MB. */
export function ownPeakRssMb(): number {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
    if (match) return Number(match[1]) / 1024;
  } catch {
    // No procfs: not Linux.
  }
  return process.resourceUsage().maxRSS / 1024;
}

/** The same, for a child script written out as an ES module (it imports `readFileSync` from node:fs). */
export const OWN_PEAK_RSS_MB_SOURCE = `function ownPeakRssMb() {
  try {
    const match = /^VmHWM:\\s+(\\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {}
  return process.resourceUsage().maxRSS / 1024;
}`;
