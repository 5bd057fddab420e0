// Tells the operator that Hiro deprecated or retired a route the watcher reads, before a retirement stops it:
// a warning log per route, the ApiDeprecations metric (only when there is something to count), and a notice on
// the operator channel at most once a day per route. "Once a day" has to hold across Lambda invocations, whose
// memory does not last, so it is an alert-style claim on a key that names the UTC day.
//
// A process that has seen the day's notice sent (`DeprecationsNoticed`, kept by the Lambda container or the
// local runner) says nothing more about that route that day: Hiro has marked routes deprecated for months, and
// a warning line and a record read every run (every few seconds in the loop mode) would be noise and most of
// a quiet turn's log bill. A new container, or the next UTC day, warns again.
import type { ApiDeprecation } from '../domain';
import type { CycleDeps, DeprecationsNoticed } from '../cycle-types';

export function apiDeprecationKey(deprecation: ApiDeprecation, nowMs: number): string {
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const what = deprecation.unreadable ? 'api-unreadable' : deprecation.gone ? 'api-retired' : 'api-deprecation';
  return `ops:${what}:${deprecation.route.replace(/[^A-Za-z0-9/{}_.-]+/g, '-')}:${day}`;
}

/** More than a few days of routes is not kept: older days' keys can never match again. */
const NOTICED_KEPT = 64;

function remember(noticed: DeprecationsNoticed | undefined, key: string): void {
  if (!noticed) return;
  if (noticed.size >= NOTICED_KEPT) noticed.clear();
  noticed.add(key);
}

/** Never throws: telling the operator must not stop a scan that is otherwise fine. */
export async function reportApiDeprecations(deps: CycleDeps, runId: string, staleAfterMs: number, noticed?: DeprecationsNoticed): Promise<void> {
  const now = deps.clock.now();
  const deprecations = (deps.chain.takeApiDeprecations?.() ?? []).filter((d) => !noticed?.has(apiDeprecationKey(d, now)));
  if (deprecations.length === 0) return;
  const { telemetry } = deps;
  telemetry.metric('ApiDeprecations', deprecations.length);
  for (const deprecation of deprecations) {
    telemetry.log('warn', logMessage(deprecation), {
      runId,
      endpoint: deprecation.route,
      // A null is not a message: the attribute says who chose the replacement, or that there is none.
      ...(deprecation.replacement
        ? { replacement: deprecation.replacement, replacementNamedBy: deprecation.replacementNamedByApi ? 'the API' : 'stacks-watch' }
        : { replacement: 'none named by the API; stacks-watch reads the remaining routes' }),
      detail: deprecation.detail,
    });
    try {
      if (await notifyOncePerDay(deps, deprecation, staleAfterMs)) remember(noticed, apiDeprecationKey(deprecation, now));
    } catch (error) {
      telemetry.log('warn', 'could not record the API deprecation notice; it is tried again next run', {
        runId,
        endpoint: deprecation.route,
        error: (error as Error).message,
      });
    }
  }
}

function logMessage(deprecation: ApiDeprecation): string {
  if (deprecation.unreadable) return 'the API answers a route stacks-watch reads in a shape it cannot read';
  return deprecation.gone ? 'the API retired a route stacks-watch reads' : 'the API marks a route stacks-watch reads as deprecated';
}

/** True once the day's notice is known sent (found sent, or sent now); false while another run is sending it. */
async function notifyOncePerDay(deps: CycleDeps, deprecation: ApiDeprecation, staleAfterMs: number): Promise<boolean> {
  const now = deps.clock.now();
  const key = apiDeprecationKey(deprecation, now);
  // A read first: every run after the day's first finds the notice sent, and a refused conditional write
  // would bill a write unit each time (DynamoDB charges for failed conditions), a read far less.
  const record = await deps.state.getAlertRecord(key);
  if (record) return record.state === 'sent';
  const claim = await deps.state.claimAlert(key, now, staleAfterMs);
  if (claim === 'sent') return true;
  if (claim === 'in-flight') return false;
  const notice = describe(deprecation);
  await deps.operator.notify(notice);
  await deps.state.markAlertSent(key, now, { ...notice, route: deprecation.route });
  return true;
}

function describe(deprecation: ApiDeprecation) {
  const { route, replacement, detail } = deprecation;
  if (deprecation.unreadable) {
    return {
      kind: 'api-deprecation' as const,
      subject: 'stacks-watch: the Hiro API answers a route in an unknown shape',
      message:
        `The Hiro API answers ${route} in a shape stacks-watch cannot read (${detail}). ` +
        `stacks-watch reads ${replacement ?? 'the remaining routes'} instead, which costs more requests per block. ` +
        'Alerts go on; update stacks-watch to a version built for this API.',
    };
  }
  if (deprecation.gone) {
    return {
      kind: 'api-deprecation' as const,
      subject: 'stacks-watch: the Hiro API retired a route it reads',
      message:
        `The Hiro API answers 410 Gone for ${route} (${detail}). ` +
        (replacement
          ? `stacks-watch now reads ${replacement} instead, which costs more requests per block. `
          : 'stacks-watch reads what the remaining routes give. ') +
        'Alerts go on; update stacks-watch to a version built for the new routes.',
    };
  }
  return {
    kind: 'api-deprecation' as const,
    subject: 'stacks-watch: the Hiro API deprecated a route it reads',
    message:
      `The Hiro API marks ${route} as deprecated (Warning: ${detail}). It still answers. ` +
      (deprecation.replacementNamedByApi
        ? `The API names ${replacement} as its replacement. `
        : replacement
          ? `The API names no replacement; when Hiro retires the route (410 Gone), stacks-watch reads ${replacement} instead, on its own. `
          : 'The API names no replacement and stacks-watch has none for it: a retirement would stop what it serves. ') +
      'Plan an update of stacks-watch.',
  };
}
