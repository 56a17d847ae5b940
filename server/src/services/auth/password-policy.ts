// What a local-login password must be (decision row 35): 12 characters or more (the contract checks
// the length), and not a commonly used one (NIST SP 800-63B 3.1.1.2). The common passwords are the
// 49 000 of zxcvbn-ts' list, compared without case, also with digits and symbols added around them
// ("Dragon2024!!") and against the user's own email.
import { dictionary } from '@zxcvbn-ts/language-common';

let common: ReadonlySet<string> | undefined;

/** Built on first use: the list is decompressed once per process. */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()));
  return common;
}

/** Why the password is refused, or null when it may be used. */
export function passwordWeakness(password: string, context: { email: string }): string | null {
  const lowered = password.toLowerCase();
  const list = commonPasswords();
  if (list.has(lowered)) return 'is one of the most commonly used passwords';
  // A common word padded with digits and symbols is guessed as early as the word itself.
  const core = lowered.replace(/^[\d\W_]+|[\d\W_]+$/g, '');
  if (core !== lowered && list.has(core)) return 'is a commonly used password with digits or symbols added';
  const localPart = context.email.toLowerCase().split('@')[0] ?? '';
  if (lowered.includes(context.email.toLowerCase()) || (localPart.length >= 4 && lowered.includes(localPart))) {
    return "contains the user's email address";
  }
  return null;
}
