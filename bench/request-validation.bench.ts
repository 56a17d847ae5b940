// Request validation cost benchmark: checks the most expensive body of every shape that fits under
// each operation's size limit (arrays of distinct items, tens of thousands of unknown keys, strings
// of astral characters far over their bound) as the server does: the member count on the raw
// bytes, then, for bodies that pass it, JSON.parse (timed apart) and schema validation. Prints the
// slowest. Target: under 20 ms of checking for any body up to 1 MiB.
//
// Usage: npm run bench -- request-validation [--runs=5]

import { loadContract } from '../server/src/contract/contract.js';
import { ContractValidator } from '../server/src/contract/validator.js';
import { ApiError } from '../server/src/errors.js';
import { assertMemberCount } from '../server/src/http/body-parser.js';
import { worstBodies } from '../server/test/support/worst-bodies.js';

const runs = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.split('=')[1] ?? 5);
const targetMs = 20;

const contract = loadContract();
const validator = new ContractValidator(contract);
const rows: { case: string; bytes: number; parseMs: number; validateMs: number }[] = [];

for (const { operation, name, body } of worstBodies(contract, { longStrings: true })) {
  const raw = Buffer.from(JSON.stringify(body));
  let parseMs = 0;
  let validateMs = Infinity;
  for (let run = 0; run < runs; run += 1) {
    let checking = 0;
    const scanning = performance.now();
    try {
      assertMemberCount(raw);
      checking += performance.now() - scanning;
      const parsing = performance.now();
      const parsed = JSON.parse(raw.toString('utf8'));
      parseMs = performance.now() - parsing;
      const validating = performance.now();
      try {
        validator.checkRequest(operation, { path: {}, headers: {}, query: {}, body: parsed });
      } finally {
        checking += performance.now() - validating;
      }
      throw new Error(`${operation.operationId} (${name}) was accepted`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (checking === 0) checking = performance.now() - scanning;
    }
    validateMs = Math.min(validateMs, checking);
  }
  rows.push({ case: `${operation.operationId}: ${name}`, bytes: raw.length, parseMs, validateMs });
}

rows.sort((a, b) => b.validateMs - a.validateMs);
console.log(`${rows.length} worst-case bodies, best of ${runs} runs each; the ten slowest to validate:`);
console.table(rows.slice(0, 10).map((row) => ({ ...row, parseMs: row.parseMs.toFixed(2), validateMs: row.validateMs.toFixed(2) })));
const slowest = rows[0]!;
console.log(
  `slowest validation: ${slowest.validateMs.toFixed(2)} ms (${slowest.case}, ${slowest.bytes} bytes); target < ${targetMs} ms: ${slowest.validateMs < targetMs ? 'met' : 'MISSED'}`,
);
