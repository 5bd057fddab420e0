// The runner's words for rules' cooldowns and mutes: what `--status` shows of what they hold (the state
// the cursor carries, core/stages/cooldown-mute-state.ts), and the warning `--check` gives for a mute already over.
import type { HeldMatch, CooldownMuteState, CooldownMuteTally } from '../core/stages/cooldown-mute-state';
import { isoTime, COOLDOWN_MUTE_LISTED, type RulePolicies } from '../core/stages/cooldowns-and-mutes';

/** `12 matches held (blocks 100–120); first: key (tx 0x…), …`. */
function heldWords(t: CooldownMuteTally | undefined): string {
  if (!t || t.held === 0) return 'nothing held yet';
  const blocks = t.fromHeight === t.toHeight ? `block ${t.fromHeight}` : `blocks ${t.fromHeight}–${t.toHeight}`;
  const listed = t.first.slice(0, 3).map((h: HeldMatch) => h.key);
  const more = t.held - listed.length;
  return `${t.held} match${t.held === 1 ? '' : 'es'} held (${blocks}): ${listed.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function until(seconds: number, nowMs: number): string {
  const left = seconds - nowMs / 1000;
  const when = left <= 0 ? 'ended' : left < 7200 ? `${Math.ceil(left / 60)} min from now` : `${Math.round(left / 3600)} h from now`;
  return `${isoTime(seconds)}, ${when}`;
}

/**
 * `--status`: every rule the config mutes (and what each mute has held, from the state), then the cooldowns
 * running and what they hold. Times are block times; "from now" compares them with the clock.
 */
export function describeCooldownsAndMutes(policies: RulePolicies, state: CooldownMuteState | undefined, nowMs: number): string[] {
  if (policies.size === 0 && state === undefined) return [];
  const lines: string[] = [];
  const muted = [...policies].filter(([, p]) => p.mutedUntil !== undefined);
  const tallies = (state?.mutes ?? []).filter((t) => t.d === undefined);
  if (muted.length === 0 && tallies.length === 0) lines.push('muted rules: none');
  else lines.push('muted rules (matches recorded as muted in the state, not sent):');
  for (const [rule, policy] of muted) {
    const tally = tallies.find((t) => t.rule === rule && t.until === policy.mutedUntil);
    lines.push(`  "${rule}" muted until ${until(policy.mutedUntil!, nowMs)}: ${heldWords(tally)}`);
  }
  for (const tally of tallies.filter((t) => !muted.some(([rule, p]) => rule === t.rule && p.mutedUntil === t.until))) {
    lines.push(`  "${tally.rule}" was muted until ${isoTime(tally.until)}: ${heldWords(tally)}`);
  }
  const cooldowns = (state?.cooldowns ?? []).filter((c) => c.d === undefined); // ended ones stay only for a reorg
  if (cooldowns.length === 0) lines.push('cooldowns running: none');
  for (const c of cooldowns) {
    lines.push(
      `cooldown running: "${c.rule}" (${c.minutes} min after ${c.startedBy}) until ${until(c.until, nowMs)}: ${heldWords(c)}; summed up in one cooldown_summary when it ends`,
    );
  }
  if (cooldowns.some((c) => c.held > COOLDOWN_MUTE_LISTED) || tallies.some((t) => t.held > COOLDOWN_MUTE_LISTED)) {
    lines.push(`  (each held match has its own alert record, state "held" or "muted", with the reason)`);
  }
  return lines;
}

/** `--check`: a mute whose time is past does nothing; say so, so that it is taken out of the config. */
export function pastMuteWarnings(policies: RulePolicies, nowMs: number): string[] {
  return [...policies]
    .filter(([, p]) => p.mutedUntil !== undefined && p.mutedUntil * 1000 <= nowMs)
    .map(([rule, p]) => `warning: rule "${rule}" has "mutedUntil": "${isoTime(p.mutedUntil!)}", which is past: it mutes nothing; remove it`);
}
