import { redact } from './redact';
import { currentLogContext, type LogFields } from './log-context';
import type { LogLevel } from '../config';

const levelRank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type { LogFields };
export type LogSink = (line: string) => void;

/** Structured JSON logs, one object per line, with secrets redacted before anything is written. */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(bindings: LogFields): Logger;
}

export function createLogger(options: { level: LogLevel; sink?: LogSink; bindings?: LogFields }): Logger {
  const sink = options.sink ?? ((line: string) => process.stdout.write(`${line}\n`));
  const threshold = levelRank[options.level];
  const bindings = options.bindings ?? {};

  const write = (level: LogLevel, msg: string, fields?: LogFields) => {
    if (levelRank[level] < threshold) return;
    const entry = redact({ time: new Date().toISOString(), level, msg, ...currentLogContext(), ...bindings, ...fields });
    sink(JSON.stringify(entry));
  };

  return {
    debug: (msg, fields) => write('debug', msg, fields),
    info: (msg, fields) => write('info', msg, fields),
    warn: (msg, fields) => write('warn', msg, fields),
    error: (msg, fields) => write('error', msg, fields),
    child: (extra) => createLogger({ level: options.level, sink, bindings: { ...bindings, ...extra } }),
  };
}
