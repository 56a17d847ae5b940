import { type Logger, pino } from 'pino';

export type { Logger };

// Credentials can only reach a log line through these fields; pino removes them before writing.
const redact = ['req.headers.authorization', '*.password', '*.api_key', '*.token', '*.bearer_token', '*.key'];

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'groundcheck' }, redact: { paths: redact, censor: '[redacted]' } });
}
