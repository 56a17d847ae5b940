// The words of a field error (`FieldError.detail`) as a person reads them: JSON Schema validators say
// "must NOT have fewer than 1 characters"; the API says "must not be empty". One table for the server
// and the mock, which phrase the same checks from the same contract (decision S102).

const units: Record<string, string> = { characters: 'characters', items: 'items', properties: 'fields' };
const articles: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};
const formats: Record<string, string> = {
  email: 'an email address',
  uri: 'a URL',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (RFC 3339)',
  uuid: 'a UUID',
};

const rules: [RegExp, (...groups: string[]) => string][] = [
  [/^must NOT have fewer than 1 (characters|items|properties)$/, () => 'must not be empty'],
  [/^must NOT have fewer than (\d+) (characters|items|properties)$/, (n, unit) => `must have at least ${n} ${units[unit!]}`],
  [/^must NOT have more than (\d+) (characters|items|properties)$/, (n, unit) => `must have at most ${n} ${units[unit!]}`],
  [/^must be >= (\S+)$/, (n) => `must be at least ${n}`],
  [/^must be <= (\S+)$/, (n) => `must be at most ${n}`],
  [/^must be > (\S+)$/, (n) => `must be more than ${n}`],
  [/^must be < (\S+)$/, (n) => `must be less than ${n}`],
  [/^must be (string|integer|number|boolean|object|array|null)$/, (type) => `must be ${articles[type!]}`],
  [/^must match format "([\w-]+)"$/, (format) => `must be ${formats[format!] ?? `in the format ${format}`}`],
  [/^must match pattern "(.+)"$/, (pattern) => `must match the pattern ${pattern}`],
  [/^must NOT have duplicate items.*$/, () => 'must not repeat an item'],
  [/^must be equal to one of the allowed values: (.+)$/, (values) => `must be one of: ${values}`],
];

/** A validator's message in the API's words; a message no rule knows is kept as it is. */
export function fieldWording(message: string): string {
  for (const [pattern, say] of rules) {
    const match = pattern.exec(message);
    if (match) return say(...match.slice(1));
  }
  return message;
}
