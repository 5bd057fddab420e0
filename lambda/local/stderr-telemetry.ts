// The local runner's log: one line per event on stderr, so stdout carries alerts only.
import type { Writable } from 'node:stream';
import type { Telemetry } from '../core/ports';
import { showControlCharacters } from '../core/render/untrusted-text';
import { EnvironmentError } from '../runtime/api-env';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

/** LOG_LEVEL: unset or empty is info; anything else not a level is a mistake worth naming, not info. */
export function parseLogLevel(text: string | undefined): Level {
  const level = (text?.trim() || 'info').toLowerCase();
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw new EnvironmentError(`LOG_LEVEL must be one of ${LEVELS.join(', ')}, got "${text}"`);
  }
  return level as Level;
}

/** `beforeWrite` runs before each line, so a progress line on the terminal can be cleared first. */
export function createStderrTelemetry(err: Writable, minLevel: Level, beforeWrite: () => void = () => {}): Telemetry {
  const min = LEVELS.indexOf(minLevel);
  return {
    log(level, message, attributes) {
      if (LEVELS.indexOf(level) < min) return;
      beforeWrite();
      const attrs = attributes && Object.keys(attributes).length > 0 ? ' ' + JSON.stringify(attributes) : '';
      // Messages carry the API's and the chain's words: escape codes in them are shown, never obeyed.
      err.write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${showControlCharacters(message + attrs)}\n`);
    },
    // Metrics are a cloud concern; locally the cycle summary in the log says the same.
    metric() {},
  };
}
