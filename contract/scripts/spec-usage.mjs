// Which parts of openapi.yaml a caller sends (request bodies and parameters) and which only the
// server writes (responses, their headers, the webhook payload). Bounds on the first protect the
// server; bounds on the second limit nothing a caller controls. Used by .spectral.js and its test.

/** `$ref`s directly under a node; example values are data, not schemas. */
function refsIn(node, found = new Set()) {
  if (Array.isArray(node)) {
    for (const item of node) refsIn(item, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.add(value);
      else if (key !== 'example' && key !== 'examples') refsIn(value, found);
    }
  }
  return found;
}

const unescapePointer = (segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~');
export const escapePointer = (segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

function resolve(spec, ref) {
  return ref
    .slice(2)
    .split('/')
    .reduce((node, key) => node?.[unescapePointer(key)], spec);
}

/** Every `#/components/...` ref reachable from the roots, through nested refs. */
function reachable(spec, roots) {
  const seen = new Set();
  const pending = [...roots];
  while (pending.length > 0) {
    const ref = pending.pop();
    if (seen.has(ref)) continue;
    seen.add(ref);
    for (const next of refsIn(resolve(spec, ref))) pending.push(next);
  }
  return seen;
}

/** The components a caller's request can reach (`input`) and those a response or webhook reaches (`output`). */
export function componentUsage(spec) {
  const inputRoots = new Set();
  const outputRoots = new Set();
  for (const item of Object.values(spec.paths ?? {})) {
    refsIn(item.parameters ?? [], inputRoots);
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'parameters' || !operation || typeof operation !== 'object') continue;
      refsIn(operation.parameters ?? [], inputRoots);
      refsIn(operation.requestBody ?? {}, inputRoots);
      refsIn(operation.responses ?? {}, outputRoots);
    }
  }
  // The webhook payload is written by the server; its receivers are the customers.
  refsIn(spec.webhooks ?? {}, outputRoots);
  return { input: reachable(spec, inputRoots), output: reachable(spec, outputRoots) };
}

/**
 * JSON pointers of everything no request reaches: each operation's responses, the webhooks, and
 * every component that no request body or parameter refers to (response schemas and headers, and
 * documents the API describes without taking them as input).
 */
export function pointersOutsideRequests(spec) {
  const { input } = componentUsage(spec);
  const pointers = [];
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.responses) pointers.push(`/paths/${escapePointer(path)}/${method}/responses`);
    }
  }
  if (spec.webhooks) pointers.push('/webhooks');
  for (const [kind, members] of Object.entries(spec.components ?? {})) {
    for (const name of Object.keys(members)) {
      const pointer = `/components/${kind}/${escapePointer(name)}`;
      if (!input.has(`#${pointer}`)) pointers.push(pointer);
    }
  }
  return pointers.sort();
}
