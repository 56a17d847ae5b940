// Fits the aggregator (aggregate/model.ts) on labelled cases: a logistic regression over the
// strongest signal of each kind per claim, then the flagging threshold chosen for precision first,
// then the demotion of kinds whose flags are not precise enough, then the answer-level kinds that
// earn their finding. Deterministic: same cases, same model, to the last digit.
import type { AggregatorModel } from '../src/engine/aggregate/model.js';
import type { Assessment } from '../src/engine/validate.js';
import type { Case } from './datasets.js';

/** Precision the threshold must keep on each group of training cases. */
export const precisionTarget = { realistic: 0.7, halueval: 0.98 } as const;
/** L2 penalty on the weights: keeps rare kinds from taking extreme weights. */
const l2 = 0.01;
const iterations = 1500;
const learningRate = 0.8;
const momentum = 0.9;

type Group = keyof typeof precisionTarget;

export interface ClaimSample {
  /** Strongest strength of each signal kind (notes left out). */
  features: Map<string, number>;
  /** 1 wrong, 0 right, undefined when the labels do not say which claim is wrong. */
  label: 0 | 1 | undefined;
}

export interface CaseSample {
  case: Case;
  group: Group;
  claims: ClaimSample[];
  /** A bare "no": its claim's verdict is the statement's flipped, so it is left out of fitting. */
  denial: boolean;
  answerKinds: string[];
}

function features(signals: Assessment['claims'][number]['signals']): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of signals) if (s.verdict !== 'note') out.set(s.kind, Math.max(out.get(s.kind) ?? 0, s.strength));
  return out;
}

/** The training view of one assessed case: claim features with the labels the case gives them. */
export function sampleOf(c: Case, assessment: Assessment): CaseSample {
  const group: Group = c.set === 'halueval' ? 'halueval' : 'realistic';
  const from = c.span === undefined ? -1 : c.answer.indexOf(c.span);
  const to = from + (c.span?.length ?? 0);
  const overlaps = assessment.claims.map((a) => from >= 0 && a.span.start < to && a.span.end > from);
  const located = overlaps.some(Boolean);
  const claims: ClaimSample[] = assessment.claims.map((a, i) => {
    let label: ClaimSample['label'];
    if (!c.hallucinated) label = 0;
    else if (c.span !== undefined) label = located ? (overlaps[i] ? 1 : 0) : undefined;
    else label = assessment.claims.length === 1 ? 1 : undefined;
    return { features: features(a.signals), label };
  });
  const statement = assessment.statement;
  if (statement)
    claims.push({ features: features(statement.signals), label: statement.polarity === 'yes' ? (c.hallucinated ? 1 : 0) : undefined });
  return { case: c, group, claims, denial: statement?.polarity === 'no', answerKinds: assessment.answerSignals.map((s) => s.kind) };
}

export interface KindInfo {
  /** +1 for kinds that flag, -1 for kinds that support. */
  sign: Map<string, 1 | -1>;
  /** Kinds that move the score only (the checks' confidence kinds, the entailment model's), fitted after the flags. */
  scoreOnly: ReadonlySet<string>;
}

export function kindInfo(cases: CaseSample[], supportKinds: ReadonlySet<string>, scoreOnly: ReadonlySet<string> = new Set()): KindInfo {
  const sign = new Map<string, 1 | -1>();
  for (const c of cases)
    for (const claim of c.claims) for (const kind of claim.features.keys()) sign.set(kind, supportKinds.has(kind) ? -1 : 1);
  return { sign, scoreOnly };
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

function linear(claim: ClaimSample, weights: Record<string, number>, intercept: number, skip: ReadonlySet<string>): number {
  let z = intercept;
  for (const [kind, x] of claim.features) if (!skip.has(kind)) z += (weights[kind] ?? 0) * x;
  return z;
}

interface Fitted {
  weights: Record<string, number>;
  intercept: number;
}

/** A labelled claim as the regression reads it: its features over the fitted kinds, sparse. */
interface Row {
  idx: number[];
  val: number[];
  /** What the fixed weights already give the claim. */
  offset: number;
  y: number;
  /** The claim's weight: each group weighs the same in total. */
  w: number;
}

function groupTotalsOf(cases: CaseSample[]): Map<Group, number> {
  const groupTotals = new Map<Group, number>();
  for (const c of cases)
    for (const claim of c.claims) if (claim.label !== undefined) groupTotals.set(c.group, (groupTotals.get(c.group) ?? 0) + 1);
  return groupTotals;
}

function rowOf(claim: ClaimSample, y: 0 | 1, index: Map<string, number>, weight: number, base: Fitted | undefined): Row {
  const idx: number[] = [];
  const val: number[] = [];
  let offset = base?.intercept ?? 0;
  for (const [kind, x] of claim.features) {
    offset += (base?.weights[kind] ?? 0) * x;
    const i = index.get(kind);
    if (i === undefined) continue;
    idx.push(i);
    val.push(x);
  }
  return { idx, val, offset, y, w: weight };
}

function rowsOf(cases: CaseSample[], kinds: string[], base: Fitted | undefined): Row[] {
  const index = new Map(kinds.map((k, i) => [k, i]));
  const groupTotals = groupTotalsOf(cases);
  const rows: Row[] = [];
  for (const c of cases)
    for (const claim of c.claims)
      if (claim.label !== undefined) rows.push(rowOf(claim, claim.label, index, 1 / groupTotals.get(c.group)! / groupTotals.size, base));
  return rows;
}

/** Adds the log-loss gradient of every row to `grad` (zeroed by the caller); returns the intercept's. */
function addGradient(rows: Row[], w: Float64Array, b: number, grad: Float64Array): number {
  let gb = 0;
  for (const row of rows) {
    let z = row.offset + b;
    for (let j = 0; j < row.idx.length; j++) z += w[row.idx[j]!]! * row.val[j]!;
    const err = (sigmoid(z) - row.y) * row.w;
    gb += err;
    for (let j = 0; j < row.idx.length; j++) {
      const at = row.idx[j]!;
      grad[at] = grad[at]! + err * row.val[j]!;
    }
  }
  return gb;
}

/** One momentum step of the weights, projected so that signs hold. */
function stepWeights(w: Float64Array, v: Float64Array, grad: Float64Array, sign: number[]): void {
  for (let i = 0; i < w.length; i++) {
    v[i] = momentum * v[i]! - learningRate * (grad[i]! + l2 * w[i]!);
    w[i] = w[i]! + v[i]!;
    // Signs hold: a flag never counts as support, nor support as a flag.
    if (w[i]! * sign[i]! < 0) {
      w[i] = 0;
      v[i] = 0;
    }
  }
}

/** Projected gradient descent with momentum; the intercept stays 0 unless `fitIntercept`. */
function descend(rows: Row[], sign: number[], fitIntercept: boolean): { w: Float64Array; b: number } {
  const w = new Float64Array(sign.length);
  const v = new Float64Array(sign.length);
  const grad = new Float64Array(sign.length);
  let b = 0;
  let vb = 0;
  for (let step = 0; step < iterations; step++) {
    grad.fill(0);
    const gb = addGradient(rows, w, b, grad);
    stepWeights(w, v, grad, sign);
    if (!fitIntercept) continue;
    vb = momentum * vb - learningRate * gb;
    b += vb;
  }
  return { w, b };
}

/** The weights to four decimals, kinds whose weight rounds to zero left out. */
function roundedWeights(kinds: string[], w: Float64Array): Record<string, number> {
  const weights: Record<string, number> = {};
  kinds.forEach((k, i) => {
    const rounded = Math.round(w[i]! * 10000) / 10000;
    if (rounded !== 0) weights[k] = rounded;
  });
  return weights;
}

/**
 * Logistic regression by projected gradient descent with momentum over `kinds`; each group weighs the
 * same in total. With `base`, its weights and intercept are held fixed as an offset and only `kinds`
 * are fitted (the score-only stage).
 */
function regress(cases: CaseSample[], info: KindInfo, kinds: string[], base?: Fitted): Fitted {
  const rows = rowsOf(cases, kinds, base);
  const { w, b } = descend(
    rows,
    kinds.map((k) => info.sign.get(k)!),
    !base,
  );
  const weights = roundedWeights(kinds, w);
  return base
    ? { weights: { ...base.weights, ...weights }, intercept: base.intercept }
    : { weights, intercept: Math.round(b * 10000) / 10000 };
}

interface Scored {
  sample: CaseSample;
  z: number;
}

/** Each case's strongest claim score (non-demoted kinds), the case-level flag's linear score. */
function caseScores(cases: CaseSample[], model: Omit<AggregatorModel, 'threshold' | 'answerKinds'>): Scored[] {
  const skip = new Set(model.demoted);
  return cases
    .filter((c) => !c.denial)
    .map((sample) => ({ sample, z: Math.max(-Infinity, ...sample.claims.map((cl) => linear(cl, model.weights, model.intercept, skip))) }));
}

interface Counts {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

function counts(scored: Scored[], threshold: number, group: Group): Counts {
  const out = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (const { sample, z } of scored) {
    if (sample.group !== group) continue;
    const flagged = z > threshold;
    if (flagged && sample.case.hallucinated) out.tp++;
    else if (flagged) out.fp++;
    else if (sample.case.hallucinated) out.fn++;
    else out.tn++;
  }
  return out;
}

/** The threshold with the best mean accuracy over the groups among those that keep each group's precision target. */
function chooseThreshold(scored: Scored[]): number {
  const values = [...new Set(scored.map((s) => s.z).filter(Number.isFinite))].sort((a, b) => a - b);
  const candidates = [...values.slice(0, -1).map((z, i) => (z + values[i + 1]!) / 2), (values.at(-1) ?? 0) + 1];
  const groups = [...new Set(scored.map((s) => s.sample.group))];
  let best = { threshold: candidates.at(-1)!, feasible: false, objective: -1 };
  for (const threshold of candidates) {
    let feasible = true;
    let objective = 0;
    for (const group of groups) {
      const c = counts(scored, threshold, group);
      const precision = c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp);
      if (precision < precisionTarget[group]) feasible = false;
      objective += (c.tp + c.tn) / Math.max(1, c.tp + c.fp + c.tn + c.fn) / groups.length;
    }
    if ((feasible && !best.feasible) || (feasible === best.feasible && objective > best.objective))
      best = { threshold, feasible, objective };
  }
  return Math.round(best.threshold * 10000) / 10000;
}

/** Flagged cases no longer flagged with the kinds of `without` left out, right and wrong. */
function flagsOnlyWith(
  scored: Scored[],
  model: Omit<AggregatorModel, 'answerKinds'>,
  without: ReadonlySet<string>,
): { tp: number; fp: number } {
  let tp = 0;
  let fp = 0;
  for (const { sample, z } of scored) {
    if (z <= model.threshold) continue;
    const rest = Math.max(-Infinity, ...sample.claims.map((cl) => linear(cl, model.weights, model.intercept, without)));
    if (rest > model.threshold) continue;
    if (sample.case.hallucinated) tp++;
    else fp++;
  }
  return { tp, fp };
}

/**
 * The least precise kind whose own flags (cases flagged only because of it, beside the kinds already
 * demoted) are more often wrong than right, or below target precision; none when every kind earns its flags.
 */
function leastPrecise(scored: Scored[], model: Omit<AggregatorModel, 'answerKinds'>): string | undefined {
  const skip = new Set(model.demoted);
  let worst: { kind: string; margin: number } | undefined;
  for (const kind of Object.keys(model.weights).sort()) {
    if ((model.weights[kind] ?? 0) <= 0 || skip.has(kind)) continue;
    const { tp, fp } = flagsOnlyWith(scored, model, new Set([...skip, kind]));
    if (!(fp > tp || (tp + fp >= 5 && tp / (tp + fp) < precisionTarget.realistic))) continue;
    // The kind that costs most: its wrong flags beyond what the precision target allows.
    const margin = fp - tp * (1 / precisionTarget.realistic - 1);
    if (!worst || margin > worst.margin) worst = { kind, margin };
  }
  return worst?.kind;
}

/** Answer-level kinds that add more right findings than wrong, at target precision, to cases the claims leave unflagged. */
function answerKindsEarning(scored: Scored[], threshold: number): string[] {
  const kinds = [...new Set(scored.flatMap((s) => s.sample.answerKinds))].sort();
  return kinds.filter((kind) => {
    let tp = 0;
    let fp = 0;
    for (const { sample, z } of scored) {
      if (z > threshold || !sample.answerKinds.includes(kind)) continue;
      if (sample.case.hallucinated) tp++;
      else fp++;
    }
    return tp > fp && tp / Math.max(1, tp + fp) >= precisionTarget.realistic;
  });
}

export function fitModel(cases: CaseSample[], info: KindInfo, exclude: ReadonlySet<string> = new Set()): AggregatorModel {
  const kinds = [...info.sign.keys()].filter((k) => !exclude.has(k)).sort();
  const scoreOnly = kinds.filter((k) => info.scoreOnly.has(k));
  const flagging = regress(
    cases,
    info,
    kinds.filter((k) => !info.scoreOnly.has(k)),
  );
  let model = { weights: flagging.weights, intercept: flagging.intercept, demoted: [] as string[], threshold: 0 };
  model.threshold = chooseThreshold(caseScores(cases, model));
  // One kind at a time, the costliest first: two kinds that flag the same cases are each other's cover, so
  // judging them all at once demotes both or neither by how they overlap, and small changes flip the choice.
  for (let kind = leastPrecise(caseScores(cases, model), model); kind; kind = leastPrecise(caseScores(cases, model), model)) {
    model = { ...model, demoted: [...model.demoted, kind].sort() };
    model.threshold = chooseThreshold(caseScores(cases, model));
  }
  const answerKinds = answerKindsEarning(caseScores(cases, model), model.threshold).filter((k) => !exclude.has(k));
  // Then the score-only kinds, fitted with every flag weight held fixed: they move a claim's score (and
  // the answer's confidence) but never its status.
  const scored = scoreOnly.length > 0 ? regress(cases, info, scoreOnly, flagging) : flagging;
  return {
    weights: scored.weights,
    intercept: model.intercept,
    threshold: model.threshold,
    demoted: [...model.demoted, ...scoreOnly.filter((k) => k in scored.weights)].sort(),
    answerKinds,
  };
}
