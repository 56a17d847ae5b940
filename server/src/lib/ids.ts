// Prefixed, time-ordered, opaque ids (`val_01JD3X…`): a ULID after the type prefix.
import { randomBytes } from 'node:crypto';

const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix = 'val' | 'tpl' | 'grp' | 'fil' | 'usr' | 'aud' | 'evt' | 'req';

/** `now` is the instant the id is made, in milliseconds: ids sort by it. */
export function newId(prefix: IdPrefix, now: number): string {
  return `${prefix}_${newUlid(now)}`;
}

/** The part of an id after its prefix: 10 characters of time, 16 random. */
export function newUlid(now: number): string {
  let time = '';
  for (let t = now, i = 0; i < 10; i += 1, t = Math.floor(t / 32)) time = alphabet[t % 32] + time;
  const random = Array.from(randomBytes(16), (b) => alphabet[b % 32]).join('');
  return `${time}${random}`;
}
