// The written pairs as the model meets them in production: the engine splits an answer into claims and asks the model
// about each claim, so each written hypothesis is split by the engine's own splitter and its claims become the pairs.
// An entailed hypothesis gives entailed claims (the premise states all of it); a contradicted or neutral one is kept
// only when it is one claim, since which of several claims holds the error is not recorded.
// Run by `npm run train` before train.py; writes data/claim-pairs.jsonl, which the recipe's hash covers.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitAnswer } from '../../server/src/engine/claims/split.js';

interface WrittenPair {
  premise: string;
  hypothesis: string;
  label: 'entailment' | 'neutral' | 'contradiction';
  kind: string;
}

const folder = new URL('./data/', import.meta.url).pathname;
const written = join(folder, 'written');
const lines: string[] = [];
for (const file of readdirSync(written)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const { domain, pairs } = JSON.parse(readFileSync(join(written, file), 'utf8')) as { domain: string; pairs: WrittenPair[] };
  for (const pair of pairs) {
    const claims = splitAnswer(pair.hypothesis).claims.map((c) => c.text);
    if (claims.length < 2) continue;
    if (pair.label !== 'entailment') continue;
    for (const claim of claims)
      lines.push(JSON.stringify({ domain, premise: pair.premise, hypothesis: claim, label: pair.label, kind: `${pair.kind}_claim` }));
  }
}
writeFileSync(join(folder, 'claim-pairs.jsonl'), `${lines.join('\n')}\n`);
console.log(`${lines.length} claim pairs from written hypotheses of several claims`);
