// File names given by callers (uploads): stored and echoed as NFC, and refused when they could
// mislead a reader or a file system: invisible direction overrides, unpaired surrogates, control
// characters, "." and "..", and the device names Windows reserves. The contract already bounds the
// length and refuses "/", "\" and C0 controls.
import { BadRequestError } from '../errors.js';

// Bidi embedding, override and isolate controls, C1 controls and DEL.
const unsafe = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u0080-\u009f\u007f]/u;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const reserved = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;

/** The name as stored: NFC. Throws a 400 naming `pointer` when the name is refused. */
export function checkedFileName(name: string, pointer = '/file_name'): string {
  const refuse = (detail: string) => new BadRequestError('invalid_request', `The file name ${detail}.`, [{ pointer, detail }]);
  if (loneSurrogate.test(name)) throw refuse('holds an unpaired surrogate');
  const normalised = name.normalize('NFC');
  if (unsafe.test(normalised)) throw refuse('holds an invisible control or direction character');
  if (/^\.+$/.test(normalised.trim())) throw refuse('must not be "." or ".."');
  if (normalised.trim() !== normalised || /\.$/.test(normalised)) throw refuse('must not start or end with a space, nor end with a dot');
  if (reserved.test(normalised)) throw refuse('is a device name that file systems reserve');
  return normalised;
}
