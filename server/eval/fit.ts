// npm run fit: fits the aggregator on every labelled case and writes server/src/engine/aggregate/
// weights.json; `--check` fails when the committed file differs from a fresh fit.
import { readFileSync, writeFileSync } from 'node:fs';
import { fitModel } from './aggregator-fit.js';
import { assessAll } from './cross-validation.js';
import { loadCases, sharedDataDir } from './datasets.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string | undefined]));
const file = new URL('../src/engine/aggregate/weights.json', import.meta.url);
const { assessed, info } = assessAll(loadCases(args.get('data') ?? sharedDataDir));
const model = fitModel(
  assessed.map((a) => a.sample),
  info,
);
const text = `${JSON.stringify(model, null, 2)}\n`;
if (args.has('check')) {
  if (readFileSync(file, 'utf8') !== text) {
    console.error('weights.json differs from a fresh fit: run npm run fit and commit the result.');
    process.exit(1);
  }
  console.log('weights.json matches a fresh fit.');
} else {
  writeFileSync(file, text);
  console.log(`wrote ${file.pathname}: ${Object.keys(model.weights).length} weighted kinds, ${model.demoted.length} demoted`);
}
