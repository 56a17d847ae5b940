// The canonical JSON form the audit hash chain is computed over: object keys sorted (by UTF-16
// code unit, JavaScript's default), no whitespace, JSON.stringify for scalars, arrays in order.
// Properties whose value is undefined are left out, as JSON.stringify leaves them out.

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
