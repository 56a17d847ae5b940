// npm run eval: cross-validated figures of the engine on every labelled set. Each realistic domain
// is scored by the aggregator fitted on the other domains (and HaluEval); each half of HaluEval by
// the one fitted on the other half (and the realistic sets). In-sample figures are never printed.
// Besides accuracy and precision: the AUROC of the answers' risk per set, and precision and recall at
// a few risk thresholds, for choosing an operating point.
// By default the engine is measured as a deployment runs it by default: with the shipped entailment model (or
// ENGINE_MODEL_DIR's: the onnx verifier), its signals weighed by aggregators fitted on its scores by the same folds,
// and the checks alone (verifier none, and the fallback when the model fails) beside it; --deterministic measures the
// checks alone.
// Options: --ablate (the table of each signal kind: its flags, and the figures without it), --calibration (each
// realistic domain as a tenant: the global operating point against one fitted on its first half, and the aggregator's
// weights refitted on it; calibration-simulation.ts),
// --verbose (list every miss and false flag with its claims; never the held-out documents'), --data=DIR (default ../shared/data),
// --verifier=openai (the same held-out cases through the judge, beside these figures, with its cost and
// latency; --limit=N, --judge-band: verifier-eval.ts).
import { checkOfKind } from '../src/engine/checks/index.js';
import { entailmentKinds } from '../src/engine/entailment.js';
import { loadEntailmentModel } from '../src/verifiers/entailment/entailment-model.js';
import { shippedModelDir } from '../src/verifiers/entailment/shipped-model.js';
import { figures, refitTenant, simulateTenant, type Verdict } from './calibration-simulation.js';
import {
  type Assessed,
  assessAll,
  assessWithModel,
  crossValidate,
  type Metrics,
  metrics,
  type Outcome,
  setNames,
  spanCell,
} from './cross-validation.js';
import { loadCases, loadHoldout, sharedDataDir } from './datasets.js';
import { assessHoldout, holdoutOutcomes, holdoutRows } from './holdout.js';
import { chooseModelRole } from './model-role.js';
import { auroc, operatingPoints } from './ranking.js';
import { prepareVerifierRun, VerifierEvalError } from './verifier-eval.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string | undefined]));
const verifierRun = await prepareVerifierRun(args, process.env).catch((error: unknown) => {
  if (!(error instanceof VerifierEvalError)) throw error;
  console.error(error.message);
  process.exit(2);
});
const cases = loadCases(args.get('data') ?? sharedDataDir);
const checksAlone = assessAll(cases);
const model = args.has('deterministic') ? null : await loadEntailmentModel(process.env.ENGINE_MODEL_DIR?.trim() || shippedModelDir);
const withModel = model ? await assessWithModel(checksAlone.assessed, model) : checksAlone;
const heldOut = await assessHoldout(loadHoldout(), model);
await model?.close();
const { assessed } = withModel;
/** With a model: whether its kinds flag or only move scores, as measured held out (model-role.ts). */
const role = model ? chooseModelRole(assessed, withModel.info) : undefined;
const info = role?.info ?? withModel.info;
const outcomes = role?.outcomes ?? crossValidate(assessed, info);
/** The checks alone, by the same folds: verifier none (the model's fallback), and what the judge starts from. */
const checksOutcomes = model ? crossValidate(checksAlone.assessed, checksAlone.info) : outcomes;

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

function row(name: string, m: Metrics): string {
  return `| ${name} | ${m.cases} | ${pct(m.accuracy)} | ${m.precision.toFixed(3)} | ${m.recall.toFixed(3)} | ${m.f1.toFixed(3)} | ${m.tp}/${m.fp}/${m.tn}/${m.fn} | ${spanCell(m)} |`;
}

function ofSet(list: Outcome[], set: string): Outcome[] {
  return list.filter((o) => o.case.set === set);
}

console.log('Cross-validated: realistic sets leave one domain out, HaluEval one half out.');
console.log(
  model
    ? `With the entailment model ${model.name} (the onnx verifier), weighed by the aggregator fitted on its scores.\n`
    : 'The checks alone (--deterministic): verifier none, and the fallback when the model fails.\n',
);
if (role) {
  const pair = ([h, r]: [Metrics, Metrics]) =>
    `HaluEval ${pct(h.accuracy)} / ${h.precision.toFixed(3)}, all realistic ${pct(r.accuracy)} / ${r.precision.toFixed(3)}`;
  console.log(
    `Its kinds ${role.flags ? 'flag claims' : 'move scores only'}: held out, as flags ${pair(role.asFlags)}; as score alone ${pair(role.asScore)}.\n`,
  );
}
console.log('| set | cases | accuracy | precision | recall | F1 | tp/fp/tn/fn | wrong span located: of caught; of all wrong |');
console.log('|---|---|---|---|---|---|---|---|');
for (const set of setNames) console.log(row(set, metrics(ofSet(outcomes, set))));
console.log(row('all realistic', metrics(outcomes.filter((o) => o.case.set !== 'halueval'))));
if (model) {
  console.log('\nThe checks alone (verifier none, and the fallback when the model fails), by the same folds:\n');
  console.log('| set | cases | accuracy | precision | recall | F1 | tp/fp/tn/fn | wrong span located: of caught; of all wrong |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const set of setNames) console.log(row(set, metrics(ofSet(checksOutcomes, set))));
  console.log(row('all realistic', metrics(checksOutcomes.filter((o) => o.case.set !== 'halueval'))));
}

const riskThresholds = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
/** Each set's outcomes, then the realistic sets together: the columns of the ranking table. */
const bySet = (list: Outcome[]): [string, Outcome[]][] => [
  ...setNames.map((set): [string, Outcome[]] => [set, ofSet(list, set)]),
  ['all realistic', list.filter((o) => o.case.set !== 'halueval')],
];
const rankedSets = bySet(outcomes);
const ranked = (list: Outcome[]) => list.map((o) => ({ score: o.risk, positive: o.case.hallucinated }));
const aurocCells = (sets: [string, Outcome[]][]) => sets.map(([, list]) => auroc(ranked(list))?.toFixed(3) ?? '—').join(' | ');
console.log("\nRanking by the answer's risk (one minus its lowest claim score), held out: AUROC, then precision / recall");
console.log('when every answer above the risk is flagged, as a `supported_score` of one minus it flags (flagged answers in brackets).\n');
console.log(`| risk > | ${rankedSets.map(([name]) => name).join(' | ')} |`);
console.log(`|---|${rankedSets.map(() => '---').join('|')}|`);
console.log(`| AUROC | ${aurocCells(rankedSets)} |`);
if (model) console.log(`| AUROC, the checks alone | ${aurocCells(bySet(checksOutcomes))} |`);
const pointsBySet = rankedSets.map(([, list]) => operatingPoints(ranked(list), riskThresholds));
riskThresholds.forEach((threshold, i) => {
  const cells = pointsBySet.map((points) => `${points[i]!.precision.toFixed(3)} / ${points[i]!.recall.toFixed(3)} (${points[i]!.flagged})`);
  console.log(`| ${threshold.toFixed(1)} | ${cells.join(' | ')} |`);
});

console.log('\nPer error type (realistic sets together; correct / cases):');
const types = new Map<string, Outcome[]>();
for (const o of outcomes) {
  const key = o.case.set === 'halueval' ? `halueval ${o.case.type}` : o.case.type;
  types.set(key, [...(types.get(key) ?? []), o]);
}
for (const [type, list] of [...types].sort())
  console.log(`  ${type.padEnd(34)} ${String(list.filter((o) => o.flagged === o.case.hallucinated).length).padStart(3)}/${list.length}`);

console.log('\nPer fold (held out):');
for (const fold of [...new Set(outcomes.map((o) => o.case.fold))]) {
  const m = metrics(outcomes.filter((o) => o.case.fold === fold));
  console.log(`  ${fold.padEnd(34)} accuracy ${pct(m.accuracy).padStart(6)}  precision ${m.precision.toFixed(3)}  (${m.cases} cases)`);
}

const holdout = holdoutOutcomes(heldOut, assessed, info);
if (holdout.length > 0) {
  console.log('\nHeld-out documents (server/eval/holdout: written blind to the engine, never read while writing its readings),');
  console.log('scored as a new document is: by the aggregator fitted on every development case above.\n');
  console.log('| documents | cases | accuracy | precision | recall | tp/fp/tn/fn |');
  console.log('|---|---|---|---|---|---|');
  for (const line of holdoutRows(holdout)) console.log(line);
  console.log(`\nAUROC of the held-out answers' risk: ${auroc(ranked(holdout))?.toFixed(3) ?? '—'}`);
}

const ms = (list: Assessed[]) => list.reduce((t, a) => t + a.ms, 0) / Math.max(1, list.length);
console.log(
  `\nms per case (${model ? 'checks and model' : 'checks'}; the aggregator adds little): HaluEval ${ms(assessed.filter((a) => a.case.set === 'halueval')).toFixed(2)}, realistic ${ms(assessed.filter((a) => a.case.set !== 'halueval')).toFixed(2)}`,
);

if (args.has('verbose'))
  for (const o of outcomes.filter((x) => x.flagged !== x.case.hallucinated)) {
    console.log(`\n${o.flagged ? 'FALSE FLAG' : 'MISSED'} ${o.case.set}/${o.case.id} [${o.case.type}] Q: ${o.case.question.trim()}`);
    console.log(`  A: ${o.case.answer}`);
    if (o.case.span) console.log(`  wrong span: ${o.case.span}`);
    for (const c of o.claims) console.log(`  - ${c.status} "${c.text}" ${c.reasons.join(' ')}`);
    for (const issue of o.issues.filter((i) => i.startsWith('Does not answer'))) console.log(`  ! ${issue}`);
  }

if (args.has('ablate')) {
  console.log('\nAblation (cross-validated, each kind left out of fitting and scoring in turn).');
  console.log('flags: held-out flagged cases it weighed in (true/false); adds: cases flagged with it and not without it (true/false).');
  const kinds = [...new Set([...info.sign.keys(), ...assessed.flatMap((a) => a.sample.answerKinds)])].sort();
  const header = setNames.map((s) => `${s}: flags t/f, adds t/f, acc / prec without`).join(' | ');
  console.log(`| kind | check | ${header} |`);
  console.log(`|---|---|${setNames.map(() => '---').join('|')}|`);
  for (const kind of kinds) {
    const without = crossValidate(assessed, info, new Set([kind]));
    const cells = setNames.map((set) => {
      const full = ofSet(outcomes, set);
      const less = ofSet(without, set);
      const weighed = full.filter((o) => o.flagged && o.flagKinds.includes(kind));
      const added = full.filter((o, i) => o.flagged && !less[i]!.flagged);
      const m = metrics(less);
      const tf = (list: Outcome[]) =>
        `${list.filter((o) => o.case.hallucinated).length}/${list.filter((o) => !o.case.hallucinated).length}`;
      return `${tf(weighed)}, ${tf(added)}, ${pct(m.accuracy)} / ${m.precision.toFixed(3)}`;
    });
    console.log(
      `| ${kind} | ${checkOfKind.get(kind) ?? ((entailmentKinds as readonly string[]).includes(kind) ? 'entailment model' : '?')} | ${cells.join(' | ')} |`,
    );
  }
}

if (args.has('calibration')) {
  // The engine as measured above (by default the deployment's: the checks with the model's score).
  const target = 0.9;
  const realistic = outcomes.filter((o) => o.case.set !== 'halueval');
  const rows = [
    ...[...new Set(realistic.map((o) => o.case.fold))].map((fold) =>
      simulateTenant(
        fold,
        realistic.filter((o) => o.case.fold === fold),
        target,
      ),
    ),
    simulateTenant('all realistic, one tenant (domains in turn)', realistic, target),
  ];
  const cell = (f: { precision: number | null; accuracy: number }) =>
    `${f.precision === null ? '—' : f.precision.toFixed(3)} / ${pct(f.accuracy)}`;
  console.log(`\nCalibration per tenant (target precision ${target}): each domain a tenant, its first half the reviewed history, its`);
  console.log(`second half measured; ${model ? 'with the model' : 'the checks alone'}. Precision / accuracy on the second half.\n`);
  console.log('| tenant | decisions fitted on | applied (risk ≥) | global point | tenant-fitted point | measured on |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.tenant} | ${r.history} | ${r.applied ? `yes (${r.threshold!.toFixed(3)})` : 'no'} | ${cell(r.global)} | ${cell(r.fitted)} | ${r.measured} |`,
    );
  // The weights refitted per tenant, on the same halves: the realistic cases, in file order.
  const realisticAssessed = assessed.filter((a) => a.case.set !== 'halueval');
  const refits = [...new Set(realisticAssessed.map((a) => a.case.fold))].map((fold) =>
    refitTenant(
      fold,
      realisticAssessed.filter((a) => a.case.fold === fold),
      assessed.filter((a) => a.case.fold !== fold),
      info,
    ),
  );
  console.log('\nThe aggregator refitted per tenant, on the same halves: its weights fitted on the first half alone, and on the');
  console.log('other domains and HaluEval with the first half; precision / accuracy on the second half, beside the tenant-fitted point.\n');
  console.log('| tenant | tenant-fitted point | weights from its own cases | weights from all others and its own | measured on |');
  console.log('|---|---|---|---|---|');
  const measured = (verdicts: Verdict[]) => cell(figures(verdicts, (v) => v.flagged));
  for (const r of refits) {
    const point = rows.find((row) => row.tenant === r.tenant)!;
    console.log(`| ${r.tenant} | ${cell(point.fitted)} | ${measured(r.ownCases)} | ${measured(r.withOthers)} | ${r.ownCases.length} |`);
  }
  // The same second halves pooled, each flagged at its tenant's point (the fitted one where it was applied).
  const pointVerdicts = refits.flatMap((r) => {
    const list = realistic.filter((o) => o.case.fold === r.tenant);
    const { applied, threshold } = rows.find((row) => row.tenant === r.tenant)!;
    return list
      .slice(Math.floor(list.length / 2))
      .map((o) => ({ flagged: applied ? o.risk >= threshold! : o.flagged, wrong: o.case.hallucinated }));
  });
  console.log(
    `| all domains pooled | ${measured(pointVerdicts)} | ${measured(refits.flatMap((r) => r.ownCases))} | ${measured(refits.flatMap((r) => r.withOthers))} | ${pointVerdicts.length} |`,
  );
}

if (verifierRun) {
  try {
    for (const line of await verifierRun.run(checksAlone.assessed, checksAlone.info, checksOutcomes)) console.log(line);
  } finally {
    await verifierRun.close();
  }
}
