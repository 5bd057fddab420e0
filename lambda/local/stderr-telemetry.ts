// The local runner's log: one line per event on stderr, so stdout carries alerts only.
import type { Writable } from 'node:stream';
import type { Telemetry } from '../core/ports';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

export function parseLogLevel(text: string | undefined): Level {
  const level = (text ?? 'info').toLowerCase();
  return (LEVELS as readonly string[]).includes(level) ? (level as Level) : 'info';
}

export function createStderrTelemetry(err: Writable, minLevel: Level): Telemetry {
  const min = LEVELS.indexOf(minLevel);
  return {
    log(level, message, attributes) {
      if (LEVELS.indexOf(level) < min) return;
      const attrs = attributes && Object.keys(attributes).length > 0 ? ' ' + JSON.stringify(attributes) : '';
      err.write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}${attrs}\n`);
    },
    // Metrics are a cloud concern; locally the cycle summary in the log says the same.
    metric() {},
  };
}
