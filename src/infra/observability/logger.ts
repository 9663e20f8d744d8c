// The process's logger: pino, at [log] LEVEL, one JSON object a line or plain text ([log] FORMAT).
import pino from 'pino';
import { requestContext } from './request-context.ts';

export type Logger = pino.Logger;

interface LogSettings {
  readonly LEVEL: string;
  readonly FORMAT?: 'json' | 'plain';
}

/** Plain text: time, level, message, then the fields as key=value. */
function plainLine(entry: Record<string, unknown>): string {
  const { time, level, msg, ...fields } = entry;
  const rest = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  const name = pino.levels.labels[Number(level)] ?? level;
  return `${new Date(Number(time)).toISOString()} ${String(name).toUpperCase()} ${msg ?? ''}${rest ? ` ${rest}` : ''}\n`;
}

/** The request id of the request being served, unless the logger already names it (the access log's). */
function requestIdMixin(_merge: object, _level: number, logger: pino.Logger): object {
  const context = requestContext.getStore();
  return context && !('requestId' in logger.bindings()) ? { requestId: context.requestId } : {};
}

export function createLogger(settings: LogSettings | string): Logger {
  const { LEVEL, FORMAT } = typeof settings === 'string' ? { LEVEL: settings, FORMAT: 'json' } : settings;
  const options: pino.LoggerOptions = { level: LEVEL, base: undefined, mixin: requestIdMixin };
  if (FORMAT !== 'plain') return pino(options);
  const destination = pino.destination({ sync: true });
  const plain = {
    write(line: string) {
      destination.write(plainLine(JSON.parse(line) as Record<string, unknown>));
    },
  };
  return pino(options, plain);
}
