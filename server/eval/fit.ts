// npm run fit: fits the aggregators on every labelled case and writes them to server/src/engine/aggregate/:
// weights.json (the checks alone) and weights-entailment.json (the checks beside the shipped entailment model's
// signals, on its scores; its kinds flag or only move scores as their held-out figures decide, model-role.ts;
// ENGINE_MODEL_DIR names another model to fit on); `--check` fails when a committed file differs from a fresh fit.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadEntailmentModel } from '../src/verifiers/entailment/entailment-model.js';
import { shippedModelDir } from '../src/verifiers/entailment/shipped-model.js';
import { fitModel, type KindInfo } from './aggregator-fit.js';
import { type Assessed, assessAll, assessWithModel } from './cross-validation.js';
import { loadCases, sharedDataDir } from './datasets.js';
import { chooseModelRole } from './model-role.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string | undefined]));
const checksAlone = assessAll(loadCases(args.get('data') ?? sharedDataDir));
const model = await loadEntailmentModel(process.env.ENGINE_MODEL_DIR?.trim() || shippedModelDir);
const assessedWithModel = await assessWithModel(checksAlone.assessed, model);
await model.close();
// The model's kinds flag, or only move scores, as cross-validation measures better (model-role.ts).
const withModel = { assessed: assessedWithModel.assessed, info: chooseModelRole(assessedWithModel.assessed, assessedWithModel.info).info };

let differs = false;
for (const [name, { assessed, info }] of [
  ['weights.json', checksAlone],
  ['weights-entailment.json', withModel],
] as [string, { assessed: Assessed[]; info: KindInfo }][]) {
  const file = new URL(`../src/engine/aggregate/${name}`, import.meta.url);
  const fitted = fitModel(
    assessed.map((a) => a.sample),
    info,
  );
  const text = `${JSON.stringify(fitted, null, 2)}\n`;
  if (!args.has('check')) {
    writeFileSync(file, text);
    console.log(`wrote ${file.pathname}: ${Object.keys(fitted.weights).length} weighted kinds, ${fitted.demoted.length} demoted`);
  } else if (readFileSync(file, 'utf8') !== text) {
    console.error(`${name} differs from a fresh fit: run npm run fit and commit the result.`);
    differs = true;
  } else console.log(`${name} matches a fresh fit.`);
}
if (differs) process.exit(1);
