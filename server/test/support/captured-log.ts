// A logger whose JSON lines a test can read back, to check what the server logs and at which level.
import { Writable } from 'node:stream';
import { type Logger, pino } from 'pino';

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export function capturedLog(level = 'debug'): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level }, sink), lines };
}
