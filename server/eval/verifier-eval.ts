// npm run eval -- --verifier=openai: the held-out cases of the cross-validation run again through the judge,
// applied as the server applies it, and scored beside the deterministic decision. (The local entailment model
// needs no option: `npm run eval` measures it by default, with aggregators fitted on its scores.)
// For each case the decision is the one crossValidate made (the aggregator fitted without the case's fold,
// re-run here with `decide`, which must agree with it); then the claims whose score falls in the judge band go to
// the judge through the server's own ClaimVerification (same band, passages, quote check and revision).
// A case is flagged when the result has an issue, as in the deterministic outcome; a verifier that fails
// adds its `verifier_unavailable` finding, which is an issue, so such a case counts as flagged, as a
// tenant would see it. Cases run one at a time, so the latency is one request's.
// Options: --limit=N (the first N cases of each set), --judge-band=LOW,HIGH (default 0.2,0.8, as
// `engine.judge_band`), and --verbose
// (list the cases the verifier changed). The environment configures the verifier as it does the server's.
import type { AggregatorModel } from '../src/engine/aggregate/model.js';
import type { EngineValidation } from '../src/engine/index.js';
import { answerRisk } from '../src/engine/risk.js';
import { decide } from '../src/engine/validate.js';
import type { Caller } from '../src/services/call-context.js';
import type { Tenant } from '../src/tenants/tenant.js';
import { shippedModelDir } from '../src/verifiers/entailment/shipped-model.js';
import type { ClaimJudge, JudgeOutcome } from '../src/verifiers/judge/claim-judge.js';
import { type JudgeSettings, judgeSettingsFromEnv } from '../src/verifiers/judge/judge-settings.js';
import { fitModel, type KindInfo } from './aggregator-fit.js';
import { type Assessed, type Metrics, metrics, type Outcome, setNames, spanCell } from './cross-validation.js';

export type EvalVerifier = 'openai';

/** A wrong option or a missing variable: eval prints the message on one line and exits 2. */
export class VerifierEvalError extends Error {}

export interface VerifierEvalOptions {
  verifier: EvalVerifier;
  /** The first N cases of each set; all when undefined. */
  limit: number | undefined;
  judgeBand: { low: number; high: number };
  verbose: boolean;
}

export interface Prices {
  /** USD per million tokens. */
  input: number;
  output: number;
}

/** One held-out case after the verifier. */
export interface VerifiedCase {
  deterministic: Outcome;
  verified: Outcome;
  ms: number;
  /** openai: calls, tokens, claims sent, verdicts and failures. */
  calls: number;
  inputTokens: number;
  outputTokens: number;
  claimsSent: number;
  verdicts: string[];
  failures: string[];
  /** The verifier did not take part: the result carries a `verifier_unavailable` finding. */
  unavailable: boolean;
}

export interface VerifierRun {
  options: VerifierEvalOptions;
  /** The verifier over the held-out cases: the lines to print after the deterministic tables. */
  run(assessed: Assessed[], info: KindInfo, outcomes: Outcome[]): Promise<string[]>;
  close(): Promise<void>;
}

const verifiers: readonly EvalVerifier[] = ['openai'];
const defaultBand = { low: 0.2, high: 0.8 };

/**
 * The verifier run the arguments ask for, ready to go (judge settings read, model loaded), or null without
 * `--verifier`. Throws VerifierEvalError, naming the option or variable, when it cannot run.
 */
export async function prepareVerifierRun(
  args: ReadonlyMap<string, string | undefined>,
  env: Record<string, string | undefined>,
): Promise<VerifierRun | null> {
  const options = optionsFrom(args);
  if (!options) return null;
  return openaiRun(options, judgeSettingsOf(env), pricesOf(env));
}
export function optionsFrom(args: ReadonlyMap<string, string | undefined>): VerifierEvalOptions | null {
  const verifierOnly = ['limit', 'judge-band'].filter((name) => args.has(name));
  if (!args.has('verifier')) {
    if (verifierOnly.length > 0) throw new VerifierEvalError(`--${verifierOnly[0]} goes with --verifier=openai`);
    return null;
  }
  const verifier = args.get('verifier');
  if (!verifiers.includes(verifier as EvalVerifier))
    throw new VerifierEvalError(
      '--verifier must be openai (the entailment model is measured without an option; ENGINE_MODEL_DIR names another)',
    );
  return {
    verifier: verifier as EvalVerifier,
    limit: limitOf(args),
    judgeBand: judgeBandOf(args),
    verbose: args.has('verbose'),
  };
}

/** `--limit=N`: the first N cases of each set; all of them without it. */
function limitOf(args: ReadonlyMap<string, string | undefined>): number | undefined {
  if (!args.has('limit')) return undefined;
  const text = args.get('limit') ?? '';
  if (!/^[1-9]\d*$/.test(text)) throw new VerifierEvalError('--limit must be a whole number from 1');
  return Number(text);
}

/** `--judge-band=LOW,HIGH`; an empty part is NaN, not 0, so it fails the range check. */
function judgeBandOf(args: ReadonlyMap<string, string | undefined>): VerifierEvalOptions['judgeBand'] {
  if (!args.has('judge-band')) return defaultBand;
  const [low, high, ...rest] = (args.get('judge-band') ?? '').split(',').map((x) => (x.trim() === '' ? Number.NaN : Number(x)));
  if (low === undefined || high === undefined || rest.length > 0 || !(low >= 0 && low <= high && high <= 1))
    throw new VerifierEvalError('--judge-band must be LOW,HIGH with 0 ≤ LOW ≤ HIGH ≤ 1');
  return { low, high };
}

function judgeSettingsOf(env: Record<string, string | undefined>): JudgeSettings {
  if (!env.OPENAI_API_KEY?.trim() && !env.AZURE_OPENAI_ENDPOINT?.trim())
    throw new VerifierEvalError('--verifier=openai needs OPENAI_API_KEY (or AZURE_OPENAI_ENDPOINT for Azure OpenAI)');
  try {
    return judgeSettingsFromEnv(env);
  } catch (error) {
    // The settings' errors name variables, never their values.
    throw new VerifierEvalError(`--verifier=openai: ${(error as Error).message}`);
  }
}

/** JUDGE_PRICE_INPUT_PER_MTOK and JUDGE_PRICE_OUTPUT_PER_MTOK, both or neither. */
export function pricesOf(env: Record<string, string | undefined>): Prices | null {
  const names = ['JUDGE_PRICE_INPUT_PER_MTOK', 'JUDGE_PRICE_OUTPUT_PER_MTOK'] as const;
  const [input, output] = names.map((name) => {
    const text = env[name]?.trim();
    if (!text) return undefined;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0)
      throw new VerifierEvalError(`${name} must be a number of US dollars per million tokens, 0 or more`);
    return value;
  });
  if (input === undefined && output === undefined) return null;
  if (input === undefined) throw new VerifierEvalError(`${names[0]} must be set with ${names[1]}`);
  if (output === undefined) throw new VerifierEvalError(`${names[1]} must be set with ${names[0]}`);
  return { input, output };
}

// --- the two verifiers, as the server applies them ---

/** One held-out case's deterministic result, from the model fitted without its fold. */
interface Held {
  assessed: Assessed;
  result: EngineValidation;
}

type ApplyResult = Omit<VerifiedCase, 'deterministic' | 'verified' | 'ms'> & { result: EngineValidation };

async function openaiRun(options: VerifierEvalOptions, settings: JudgeSettings, prices: Prices | null): Promise<VerifierRun> {
  const [{ createClaimJudge }, { ClaimVerification }, { createLogger }] = await Promise.all([
    import('../src/verifiers/judge/claim-judge.js'),
    import('../src/services/validation/claim-verification.js'),
    import('../src/logger.js'),
  ]);
  // The judge as the server builds it, metered: every judgeClaims outcome is kept for the case in progress.
  const judge = createClaimJudge(settings);
  let judged: JudgeOutcome[] = [];
  const metered: ClaimJudge = {
    async judgeClaims(input, signal) {
      const outcome = await judge.judgeClaims(input, signal);
      judged.push(outcome);
      return outcome;
    },
    writeAnswer: (input, signal) => judge.writeAnswer(input, signal),
  };
  const verification = new ClaimVerification({ defaultVerifier: 'openai', judge: settings, modelDir: shippedModelDir }, metered);
  // judgeUncertain reads the tenant's verifier settings and id (the judge's concurrency lane), the call's
  // abort signal and its logger; nothing else of a call.
  const tenant: Pick<Tenant, 'customerId' | 'verifier'> = {
    customerId: 'eval',
    verifier: { choice: 'openai', judgeBand: options.judgeBand, entailmentWeight: 1 },
  };
  const caller = { tenant, abortSignal: new AbortController().signal, log: createLogger('silent') } as unknown as Caller;

  const apply = async ({ assessed, result }: Held): Promise<ApplyResult> => {
    judged = [];
    const revised = await verification.judgeUncertain(caller, assessed.assessment.request, result);
    const sum = (pick: (o: JudgeOutcome) => number) => judged.reduce((t, o) => t + pick(o), 0);
    return {
      result: revised,
      calls: sum((o) => o.usage.calls),
      inputTokens: sum((o) => o.usage.inputTokens),
      outputTokens: sum((o) => o.usage.outputTokens),
      claimsSent: sum((o) => o.verdicts.length + o.failures.length),
      verdicts: judged.flatMap((o) => o.verdicts.map((v) => v.status)),
      failures: judged.flatMap((o) => o.failures.map((f) => f.reason)),
      unavailable: revised.findings.some((f) => f.category === 'verifier_unavailable'),
    };
  };
  const heading = [
    `With openai: model ${settings.model} (${settings.provider === 'azure' ? 'Azure OpenAI deployment' : 'OpenAI-compatible endpoint'}), judge band ${options.judgeBand.low}–${options.judgeBand.high}, at most ${settings.maxClaims} claims per case, ${settings.timeoutMs} ms budget per case; cases one at a time.`,
  ];
  return {
    options,
    run: (assessed, info, outcomes) => runAll(options, assessed, info, outcomes, apply, heading, (list) => openaiCost(list, prices)),
    close: async () => {},
  };
}

// --- running and scoring ---

async function runAll(
  options: VerifierEvalOptions,
  assessed: Assessed[],
  info: KindInfo,
  outcomes: Outcome[],
  apply: (held: Held, fold: AggregatorModel) => Promise<ApplyResult>,
  heading: string[],
  cost: (list: VerifiedCase[]) => string[],
): Promise<string[]> {
  const byKey = new Map(outcomes.map((o) => [keyOf(o.case), o]));
  const chosen = setNames.flatMap((set) => {
    const inSet = assessed.filter((a) => a.case.set === set);
    return options.limit === undefined ? inSet : inSet.slice(0, options.limit);
  });
  // The fold models crossValidate used: fitted on every other fold, from the same samples.
  const models = new Map<string, AggregatorModel>();
  const modelOf = (fold: string) => {
    let model = models.get(fold);
    if (!model) {
      model = fitModel(
        assessed.filter((a) => a.case.fold !== fold).map((a) => a.sample),
        info,
      );
      models.set(fold, model);
    }
    return model;
  };
  const verified: VerifiedCase[] = [];
  for (const [done, a] of chosen.entries()) {
    const deterministic = byKey.get(keyOf(a.case));
    if (!deterministic) throw new Error(`no cross-validated outcome for ${keyOf(a.case)}`);
    const fold = modelOf(a.case.fold);
    const { result } = decide(a.assessment, fold);
    if (result.issue_count > 0 !== deterministic.flagged)
      throw new Error(`${keyOf(a.case)}: the fold's model does not reproduce the cross-validated decision`);
    const started = performance.now();
    const { result: after, ...usage } = await apply({ assessed: a, result }, fold);
    const ms = performance.now() - started;
    verified.push({ deterministic, verified: outcomeOf(deterministic, after), ms, ...usage });
    if (process.stderr.isTTY) process.stderr.write(`\r${options.verifier}: ${done + 1}/${chosen.length} cases`);
  }
  if (process.stderr.isTTY && chosen.length > 0) process.stderr.write('\n');
  return [
    '',
    ...heading,
    ...comparison(options, verified),
    '',
    ...cost(verified),
    ...(options.verbose ? changes(options.verifier, verified) : []),
  ];
}

const keyOf = (c: Outcome['case']) => `${c.set}/${c.id}`;

/** The verified result scored as outcomeOf scores the deterministic one. */
function outcomeOf(deterministic: Outcome, result: EngineValidation): Outcome {
  const c = deterministic.case;
  const from = c.span === undefined ? -1 : c.answer.indexOf(c.span);
  const to = from + (c.span?.length ?? 0);
  return {
    case: c,
    flagged: result.issue_count > 0,
    risk: answerRisk(result),
    located: from >= 0 && result.claims.some((cl) => cl.status !== 'supported' && cl.start < to && cl.end > from),
    flagKinds: [],
    claims: result.claims.map((cl) => ({ text: cl.text, status: cl.status, reasons: cl.verifier ? [`(${cl.verifier})`] : [] })),
    issues: result.issues,
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** The deterministic table's columns, each cell "deterministic → with the verifier" on the same cases. */
function comparison(options: VerifierEvalOptions, list: VerifiedCase[]): string[] {
  const row = (name: string, part: VerifiedCase[]) => {
    const d = metrics(part.map((v) => v.deterministic));
    const v = metrics(part.map((x) => x.verified));
    const pair = (f: (m: Metrics) => string) => `${f(d)} → ${f(v)}`;
    const right = (o: Outcome) => o.flagged === o.case.hallucinated;
    const fixed = part.filter((x) => !right(x.deterministic) && right(x.verified));
    const broke = part.filter((x) => right(x.deterministic) && !right(x.verified));
    return `| ${name} | ${d.cases} | ${pair((m) => pct(m.accuracy))} | ${pair((m) => m.precision.toFixed(3))} | ${pair((m) => m.recall.toFixed(3))} | ${pair((m) => m.f1.toFixed(3))} | ${pair((m) => `${m.tp}/${m.fp}/${m.tn}/${m.fn}`)} | ${pair(spanCell)} | +${fixed.length}/−${broke.length} |`;
  };
  const lines = [
    '',
    `Cross-validated, deterministic → with ${options.verifier}, on the same held-out cases${options.limit === undefined ? '' : ` (the first ${options.limit} of each set)`}; changed: cases the verifier made right / wrong.`,
    '',
    '| set | cases | accuracy | precision | recall | F1 | tp/fp/tn/fn | wrong span located: of caught; of all wrong | changed |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const set of setNames) {
    const part = list.filter((v) => v.deterministic.case.set === set);
    if (part.length > 0) lines.push(row(set, part));
  }
  const realistic = list.filter((v) => v.deterministic.case.set !== 'halueval');
  if (realistic.length > 0) lines.push(row('all realistic', realistic));
  return lines;
}

/** Nearest rank: the smallest value with at least 95% of the values at or below it. */
export function p95(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1]!;
}

const mean = (values: number[]) => values.reduce((t, x) => t + x, 0) / Math.max(1, values.length);
const total = (values: number[]) => values.reduce((t, x) => t + x, 0);

/** The rows of a cost table: each set, all realistic, and all. */
function costRows(list: VerifiedCase[]): [string, VerifiedCase[]][] {
  const rows: [string, VerifiedCase[]][] = setNames.map((set) => [set, list.filter((v) => v.deterministic.case.set === set)]);
  rows.push(['all realistic', list.filter((v) => v.deterministic.case.set !== 'halueval')]);
  rows.push(['all', list]);
  return rows.filter(([, part]) => part.length > 0);
}

function counts(values: string[]): string {
  const by = new Map<string, number>();
  for (const value of values) by.set(value, (by.get(value) ?? 0) + 1);
  return [...by]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([value, n]) => `${value} ${n}`)
    .join(', ');
}

function usd(x: number): string {
  return `$${x < 1 ? x.toFixed(6) : x.toFixed(2)}`;
}

function openaiCost(list: VerifiedCase[], prices: Prices | null): string[] {
  const costOf = (v: VerifiedCase) => (prices ? (v.inputTokens * prices.input + v.outputTokens * prices.output) / 1e6 : 0);
  const lines = [
    'Cost and latency per case (openai; means over all cases, those without an uncertain claim included):',
    '',
    `| set | cases | cases judged | calls | input tokens | output tokens | ms mean | ms p95 |${prices ? ' USD |' : ''}`,
    `|---|---|---|---|---|---|---|---|${prices ? '---|' : ''}`,
  ];
  for (const [name, part] of costRows(list)) {
    const cells = [
      name,
      String(part.length),
      String(part.filter((v) => v.claimsSent > 0).length),
      mean(part.map((v) => v.calls)).toFixed(2),
      mean(part.map((v) => v.inputTokens)).toFixed(1),
      mean(part.map((v) => v.outputTokens)).toFixed(1),
      mean(part.map((v) => v.ms)).toFixed(1),
      p95(part.map((v) => v.ms)).toFixed(1),
      ...(prices ? [usd(mean(part.map(costOf)))] : []),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const verdicts = list.flatMap((v) => v.verdicts);
  const failures = list.flatMap((v) => v.failures);
  lines.push(
    '',
    `In all: ${total(list.map((v) => v.calls))} calls, ${total(list.map((v) => v.inputTokens))} input tokens, ${total(list.map((v) => v.outputTokens))} output tokens for ${list.length} cases.`,
    `Claims sent: ${total(list.map((v) => v.claimsSent))}; verdicts taken: ${verdicts.length}${verdicts.length ? ` (${counts(verdicts)})` : ''}; failures: ${failures.length}${failures.length ? ` (${counts(failures)})` : ''}.`,
    `Cases with a verifier_unavailable finding (counted as flagged, as the server reports them): ${list.filter((v) => v.unavailable).length}.`,
  );
  if (prices) {
    const spent = total(list.map(costOf));
    lines.push(
      `Estimated cost at $${prices.input} / $${prices.output} per million input / output tokens: ${usd(spent)} for these ${list.length} cases, ${usd((spent / Math.max(1, list.length)) * 1000)} per 1,000 cases.`,
    );
  } else {
    lines.push('Set JUDGE_PRICE_INPUT_PER_MTOK and JUDGE_PRICE_OUTPUT_PER_MTOK (US dollars per million tokens) for an estimated cost.');
  }
  return lines;
}

/** With --verbose: every case whose flag the verifier changed, with the claims whose status it changed. */
function changes(verifier: EvalVerifier, list: VerifiedCase[]): string[] {
  const lines: string[] = [];
  for (const v of list.filter((x) => x.deterministic.flagged !== x.verified.flagged)) {
    const c = v.deterministic.case;
    const right = v.verified.flagged === c.hallucinated;
    lines.push('', `${right ? 'MADE RIGHT' : 'MADE WRONG'} by ${verifier}: ${c.set}/${c.id} [${c.type}] Q: ${c.question.trim()}`);
    lines.push(`  A: ${c.answer}`);
    if (c.span) lines.push(`  wrong span: ${c.span}`);
    v.verified.claims.forEach((claim, i) => {
      const before = v.deterministic.claims[i]?.status;
      if (before !== claim.status) lines.push(`  - ${before} → ${claim.status} "${claim.text}"`);
    });
    for (const issue of v.verified.issues.filter((i) => !v.deterministic.issues.includes(i))) lines.push(`  + ${issue}`);
  }
  return lines;
}
