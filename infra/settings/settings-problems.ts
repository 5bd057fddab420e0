// A schema issue in the deploy settings, in words: where (a -c key, or the settings file's JSON path), what is
// wrong, and what was found.
import type { z } from 'zod';
import { describeValue, formatPath, valueAt } from '../../lambda/core/watch-config/config-problems';
import { shownUrl } from './endpoint-names';

function issueProblem(issue: z.core.$ZodIssue, raw: Record<string, unknown>, fromFile: (key: string) => string | undefined): string {
  const source = fromFile(String(issue.path[0]));
  // A value from the settings file is named by its JSON path in it; a -c value by its key.
  const where = source !== undefined ? `${source} at ${formatPath(issue.path)}` : formatPath(issue.path).replace(/^\$\.?/, '');
  // A list item exists only after comma-separated or JSON text is split or parsed, so where the raw context
  // has nothing at the issue's path, the issue's own input is the value found.
  const asGiven = valueAt(raw, issue.path);
  const found = asGiven === undefined && 'input' in issue ? issue.input : asGiven;
  // A URL found where it does not belong (a chat webhook written in place of its SSM parameter) is the secret.
  const shown = shownUrl(describeValue(found));
  // Messages that quote the text (E.164, email, principals) already say what was found.
  if (found === undefined || (typeof found === 'string' && issue.message.includes(shown))) return `${where}: ${issue.message}`;
  return `${where}: ${issue.message} (found: ${shown})`;
}

/** Every issue of a parse, or none; `fromFile` names the settings file a key's value came from, if it did. */
export function issueProblems(
  parsed: { success: boolean; error?: z.ZodError },
  raw: Record<string, unknown>,
  fromFile: (key: string) => string | undefined,
): string[] {
  return parsed.success ? [] : (parsed.error?.issues ?? []).map((issue) => issueProblem(issue, raw, fromFile));
}
