// `npm run eval -- --verifier=openai`: the held-out cases through the judge (against the chat-completions stand-in on
// 127.0.0.1), printed beside the deterministic figures with cost and latency; and the eval measuring the entailment
// model that ENGINE_MODEL_DIR names (the tiny test model) in place of the shipped one.
// The eval runs as a child process on a few cases of the development data (a cut of it in a temporary folder); no
// traffic leaves 127.0.0.1, and no assertion depends on how long anything took.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sharedDataDir } from '../../eval/datasets.js';
import { optionsFrom, p95, pricesOf, VerifierEvalError } from '../../eval/verifier-eval.js';
import { type ChatStandIn, completion, startChatStandIn, verdict } from '../verifiers/support/chat-stand-in.js';
import { tinyModelDir } from '../verifiers/support/entailment-folders.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);
const limit = 3;
const sets = ['halueval', 'shared-realistic', 'team-realistic'];

/** The environment without any verifier setting of the machine's, so that nothing but the test's endpoint is used. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(OPENAI_|AZURE_OPENAI_|JUDGE_|ENGINE_)/.test(name)));
  return { ...env, ...extra };
}

async function evalWith(data: string, args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/eval/eval.ts', `--data=${data}`, ...args], {
    cwd: repo,
    env: cleanEnv(env),
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** The cells of the markdown row whose first cell is `name`, in the table that follows `title`. */
function rowOf(stdout: string, title: RegExp, name: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => title.test(line));
  assert.ok(start >= 0, `no ${title} in:\n${stdout}`);
  const line = lines.slice(start).find((l) => l.startsWith(`| ${name} |`));
  assert.ok(line, `no row ${name} after ${title} in:\n${stdout}`);
  return line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

const number = (text: string | undefined) => {
  const value = Number(text);
  assert.ok(Number.isFinite(value) && value >= 0, `${text} is not a count or a duration`);
  return value;
};

function checkComparison(stdout: string, verifier: string) {
  const title = new RegExp(
    `^Cross-validated, deterministic → with ${verifier}, on the same held-out cases \\(the first ${limit} of each set\\)`,
  );
  for (const set of sets) {
    const cells = rowOf(stdout, title, set);
    assert.equal(cells.length, 9);
    assert.equal(cells[1], String(limit));
    // Accuracy, precision, recall, F1 and confusion, then the span (located among the caught, then among all
    // wrong answers): each "deterministic → verified".
    for (const cell of cells.slice(2, 7)) assert.match(cell, /^\S+ → \S+$/);
    const span = /^(?:—|\d+\/\d+ caught \(\d+\.\d%\); \d+\/\d+ \(\d+\.\d%\))$/;
    for (const side of cells[7]!.split(' → ')) assert.match(side, span);
    assert.match(cells[2]!, /^\d+\.\d% → \d+\.\d%$/);
    const [tp, fp, tn, fn] = cells[6]!.split(' → ')[1]!.split('/').map(Number);
    assert.equal(tp! + fp! + tn! + fn!, limit);
    assert.match(cells[8]!, /^\+\d+\/−\d+$/);
  }
  assert.equal(rowOf(stdout, title, 'all realistic')[1], String(2 * limit));
}

describe('npm run eval -- --verifier', () => {
  let data: string;
  before(() => {
    // A cut of the development data: the first HaluEval lines and the first realistic cases (the team's own
    // cases in server/eval/cases are always read).
    data = mkdtempSync(join(tmpdir(), 'groundcheck-eval-'));
    const head = (file: string, lines: number) =>
      writeFileSync(join(data, file), `${readFileSync(join(sharedDataDir, file), 'utf8').split('\n').slice(0, lines).join('\n')}\n`);
    head('halueval-qa-dev.jsonl', 8);
    head('rag-cases-dev.jsonl', 30);
  });
  after(() => rmSync(data, { recursive: true, force: true }));

  describe('with openai, against the chat-completions stand-in', () => {
    let standIn: ChatStandIn;
    before(async () => {
      // A verdict by the claim's length: supported or contradicted with a quote from its first passage, or unsupported.
      standIn = await startChatStandIn((request) => {
        const claim = String(request.data?.claim ?? '');
        const words = String(request.data?.passages?.[0]?.text ?? '')
          .split(/\s+/)
          .filter(Boolean)
          .slice(0, 8);
        const quote = words.join(' ');
        if (claim.length % 3 === 2 || words.length < 3 || quote.length < 12)
          return completion(JSON.stringify({ status: 'unsupported', evidence_quote: '', reason: 'Not stated.' }));
        return verdict(claim.length % 3 === 0 ? 'supported' : 'contradicted', quote);
      });
    });
    after(() => standIn?.close());

    it('prints the deterministic tables, then both side by side, then calls, tokens, latency and cost per case', async () => {
      const stdout = await evalWith(data, ['--verifier=openai', `--limit=${limit}`, '--judge-band=0,1'], {
        OPENAI_API_KEY: 'sk-test-eval-0123456789',
        OPENAI_BASE_URL: standIn.baseURL,
        OPENAI_MODEL: 'stand-in-model',
        // Far beyond any loopback reply, so no call is cut short however slow the machine.
        JUDGE_TIMEOUT_MS: '120000',
        JUDGE_PRICE_INPUT_PER_MTOK: '0.15',
        JUDGE_PRICE_OUTPUT_PER_MTOK: '0.6',
      });
      assert.match(stdout, /^Cross-validated: realistic sets leave one domain out, HaluEval one half out\./);
      assert.match(stdout, /^With openai: model stand-in-model \(OpenAI-compatible endpoint\), judge band 0–1, at most 8 claims per case/m);
      checkComparison(stdout, 'openai');

      // Every call the eval counted reached the stand-in, and the stand-in saw no other.
      const calls = standIn.requests.length;
      assert.ok(calls > 0, 'with the band 0–1, every case with a claim is judged');
      for (const request of standIn.requests) {
        assert.equal(request.url, '/v1/chat/completions');
        assert.equal(request.body.model, 'stand-in-model');
      }
      const cases = 3 * limit;
      // The stand-in reports 100 prompt and 20 completion tokens per reply.
      assert.ok(
        stdout.includes(`In all: ${calls} calls, ${100 * calls} input tokens, ${20 * calls} output tokens for ${cases} cases.`),
        stdout,
      );
      const verdicts = /Claims sent: (\d+); verdicts taken: (\d+)/.exec(stdout);
      assert.ok(verdicts, stdout);
      assert.equal(Number(verdicts[1]), calls, 'one call per claim: no retries against the stand-in');

      const title = /^Cost and latency per case \(openai/;
      const all = rowOf(stdout, title, 'all');
      assert.equal(all.length, 9);
      assert.equal(all[1], String(cases));
      assert.equal(all[3], (calls / cases).toFixed(2));
      assert.equal(all[4], ((100 * calls) / cases).toFixed(1));
      assert.equal(all[5], ((20 * calls) / cases).toFixed(1));
      assert.ok(number(all[7]) >= 0 && number(all[6]) >= 0);
      const perCall = (100 * 0.15 + 20 * 0.6) / 1e6;
      assert.equal(all[8], `$${((perCall * calls) / cases).toFixed(6)}`);
      for (const set of sets) assert.equal(rowOf(stdout, title, set)[1], String(limit));
      assert.ok(
        stdout.includes(
          `Estimated cost at $0.15 / $0.6 per million input / output tokens: $${(perCall * calls).toFixed(6)} for these ${cases} cases`,
        ),
        stdout,
      );
    });
  });

  it('measures the entailment model ENGINE_MODEL_DIR names in place of the shipped one, beside the checks alone', async () => {
    const stdout = await evalWith(data, [], { ENGINE_MODEL_DIR: await tinyModelDir() });
    assert.match(
      stdout,
      /^With the entailment model groundcheck\/tiny-nli \(the onnx verifier\), weighed by the aggregator fitted on its scores\.$/m,
    );
    assert.match(stdout, /^The checks alone \(verifier none, and the fallback when the model fails\), by the same folds:$/m);
    assert.match(stdout, /^\| AUROC, the checks alone \|/m);
    const deterministic = await evalWith(data, ['--deterministic'], {});
    assert.match(deterministic, /^The checks alone \(--deterministic\)/m);
    assert.doesNotMatch(deterministic, /by the same folds/);
  });

  for (const [verifier, variable] of [['openai', 'OPENAI_API_KEY']] as const) {
    it(`--verifier=${verifier} without ${variable} says so on one line and exits 2, before reading any case`, () => {
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'server/eval/eval.ts', `--verifier=${verifier}`], {
        cwd: repo,
        env: cleanEnv({}),
        encoding: 'utf8',
      });
      assert.equal(child.status, 2, child.stderr);
      assert.equal(child.stdout, '');
      const lines = child.stderr.trim().split('\n');
      assert.equal(lines.length, 1, child.stderr);
      assert.match(lines[0]!, new RegExp(variable));
    });
  }
});

describe('the options and figures of the verifier run', () => {
  const args = (...list: string[]) => new Map(list.map((a) => a.replace(/^--/, '').split('=') as [string, string | undefined]));

  it('reads --verifier, --limit and --judge-band, and refuses what does not fit', () => {
    assert.equal(optionsFrom(args('--ablate')), null);
    assert.deepEqual(optionsFrom(args('--verifier=openai', '--limit=5', '--judge-band=0.1,0.9')), {
      verifier: 'openai',
      limit: 5,
      judgeBand: { low: 0.1, high: 0.9 },
      verbose: false,
    });
    for (const wrong of [
      ['--limit=3'],
      ['--verifier'],
      ['--verifier=gpt'],
      ['--verifier=openai', '--limit=0'],
      ['--verifier=openai', '--limit=x'],
      ['--verifier=openai', '--judge-band=0.9,0.1'],
      ['--verifier=openai', '--judge-band=0.5'],
      ['--verifier=onnx'],
    ])
      assert.throws(() => optionsFrom(args(...wrong)), VerifierEvalError, wrong.join(' '));
  });

  it('takes both prices or neither', () => {
    assert.equal(pricesOf({}), null);
    assert.deepEqual(pricesOf({ JUDGE_PRICE_INPUT_PER_MTOK: '0.15', JUDGE_PRICE_OUTPUT_PER_MTOK: '0.6' }), { input: 0.15, output: 0.6 });
    assert.throws(() => pricesOf({ JUDGE_PRICE_INPUT_PER_MTOK: '0.15' }), /JUDGE_PRICE_OUTPUT_PER_MTOK/);
    assert.throws(() => pricesOf({ JUDGE_PRICE_INPUT_PER_MTOK: '-1', JUDGE_PRICE_OUTPUT_PER_MTOK: '1' }), /JUDGE_PRICE_INPUT_PER_MTOK/);
  });

  it('takes the 95th percentile by nearest rank', () => {
    assert.equal(p95([]), 0);
    assert.equal(p95([5]), 5);
    assert.equal(p95(Array.from({ length: 20 }, (_, i) => i + 1)), 19);
    assert.equal(p95(Array.from({ length: 100 }, (_, i) => 100 - i)), 95);
  });
});
