// Opaque page cursors: `<kind>:<position>` in base64url. Callers pass back what they were given;
// anything else is a 400 naming the cursor, never a lookup.
import { BadRequestError } from '../errors.js';

export function encodeCursor(kind: string, position: string | number): string {
  return Buffer.from(`${kind}:${position}`).toString('base64url');
}

/** The position a cursor of `kind` holds, checked against `shape` (anchored by the caller). */
export function decodeCursor(cursor: string, kind: string, shape: RegExp): string {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const position = text.startsWith(`${kind}:`) ? text.slice(kind.length + 1) : null;
  if (position === null || !shape.test(position)) {
    throw new BadRequestError('invalid_request', 'The cursor is not one this server issued.', [
      { pointer: '/cursor', detail: 'Pass back the next_cursor of a previous page.' },
    ]);
  }
  return position;
}
