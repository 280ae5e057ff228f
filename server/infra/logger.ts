import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs on stdout, one line per event (journald and docker collect them as-is). */
export function createLogger(level: pino.LevelWithSilent): Logger {
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime });
}
