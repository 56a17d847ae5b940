// Canonical JSON after RFC 8785 (JCS), the one form the audit hash chain and the idempotency
// fingerprint are computed over, on the server and in the SDK alike: object keys sorted by UTF-16
// code unit, no whitespace, numbers and strings as ECMAScript's JSON.stringify writes them (which is
// what JCS specifies), arrays in order. Two choices where JCS would reject the input instead: a
// property whose value is undefined is left out (as JSON.stringify leaves it out), and a lone
// surrogate is written as its \u escape (JSON.stringify's well-formed output), because the text
// hashed here has already been accepted from a caller and a hash must not fail.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
