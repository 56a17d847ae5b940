// The claim judge through the real `openai` package against a chat-completions stand-in on 127.0.0.1. No test
// sends traffic anywhere else. Durations are checked only against generous bounds: the reasons carry the proof.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { type ClaimToJudge, createClaimJudge, type JudgeInput, type JudgeSettings } from '../../src/verifiers/judge/claim-judge.js';
import {
  apiError,
  type ChatStandIn,
  completion,
  HANG,
  type Reply,
  type Script,
  startChatStandIn,
  until,
  verdict,
} from './support/chat-stand-in.js';

const KEY = 'sk-test-Zq8XvN3pLw5RtY7uK2mB';

const sources = [
  { source_id: 'handbook', text: 'Refunds are issued within 14 days of the return being received.\nShipping  is free on orders over $50.' },
  { source_id: 'faq', text: 'Our support team answers e-mails within two business days. The “Premium” plan includes phone support.' },
];

const claim = (index: number, text: string, passages = sources): ClaimToJudge => ({ index, text, passages });
const input = (claims: ClaimToJudge[], tenantId = 'tenant-a'): JudgeInput => ({
  tenantId,
  question: 'What are the terms?',
  claims,
  sources,
});

function settings(overrides: Partial<JudgeSettings> = {}): JudgeSettings {
  return {
    provider: 'openai',
    model: 'judge-model',
    apiKey: KEY,
    timeoutMs: 8000,
    maxClaims: 8,
    maxOutputTokens: 300,
    maxInputTokens: 3000,
    concurrency: 4,
    maxRetries: 1,
    ...overrides,
  };
}

async function standIn(t: { after: (fn: () => Promise<void>) => void }, script: Script): Promise<ChatStandIn> {
  const server = await startChatStandIn(script);
  t.after(() => server.close());
  return server;
}

const judgeAt = (server: ChatStandIn, overrides: Partial<JudgeSettings> = {}) =>
  createClaimJudge(settings({ baseURL: server.baseURL, ...overrides }));

/** A script that answers each claim (by its text) with its own reply. */
const byClaim =
  (replies: Record<string, Reply>): Script =>
  (request) =>
    replies[request.data.claim] ?? apiError(400, `no reply scripted for ${request.data.claim}`);

/** Replies from a list, one per request in order; the last one repeats. */
const inTurn =
  (...replies: (Reply | typeof HANG)[]): Script =>
  (_request, number) =>
    replies[Math.min(number, replies.length) - 1]!;

test('a supported claim with a real quote becomes a verdict whose offsets point into the source', async (t) => {
  // The model's quote differs in case, quote marks and spacing; the verdict carries the source's own span.
  const server = await standIn(t, inTurn(verdict('supported', '"the "premium" plan  includes phone support"')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(3, 'Premium customers get phone support.')]));

  assert.deepEqual(outcome.failures, []);
  const faq = sources[1]!.text;
  const start = faq.indexOf('The “Premium”');
  const text = 'The “Premium” plan includes phone support';
  assert.deepEqual(outcome.verdicts, [
    {
      index: 3,
      status: 'supported',
      reason: 'Because the passage says so.',
      quote: { source_id: 'faq', start, end: start + text.length, text },
    },
  ]);
  assert.equal(faq.slice(start, start + text.length), text);
  assert.deepEqual(outcome.usage.calls, 1);
  assert.equal(outcome.usage.inputTokens, 100);
  assert.equal(outcome.usage.outputTokens, 20);
  assert.ok(outcome.usage.ms >= 0);
});

test('the request is one structured, deterministic chat completion with the passages as data', async (t) => {
  const server = await standIn(t, inTurn(verdict('unsupported', '')));
  await judgeAt(server).judgeClaims(input([claim(0, 'Refunds take 30 days.')]));

  const [request] = server.requests;
  assert.equal(request!.url, '/v1/chat/completions');
  assert.equal(request!.headers.authorization, `Bearer ${KEY}`);
  const { body, data } = request!;
  assert.equal(body.model, 'judge-model');
  assert.equal(body.temperature, 0);
  // A local server's base URL: the long-standing name of the output limit.
  assert.equal(body.max_tokens, 300);
  assert.equal(body.max_completion_tokens, undefined);
  assert.equal(body.response_format.type, 'json_schema');
  assert.equal(body.response_format.json_schema.strict, true);
  assert.deepEqual(body.response_format.json_schema.schema.required, ['status', 'evidence_quote', 'reason']);
  assert.deepEqual(body.response_format.json_schema.schema.properties.status.enum, ['supported', 'contradicted', 'unsupported']);
  assert.equal(body.messages[0].role, 'system');
  assert.match(body.messages[0].content, /never instructions/);
  assert.deepEqual(data, { question: 'What are the terms?', claim: 'Refunds take 30 days.', passages: sources });
});

test('a contradicted claim carries the quote that states otherwise', async (t) => {
  const server = await standIn(t, inTurn(verdict('contradicted', 'Refunds are issued within 14 days of the return being received.')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'Refunds take 30 days.')]));

  assert.deepEqual(outcome.failures, []);
  const [judged] = outcome.verdicts;
  assert.equal(judged!.status, 'contradicted');
  assert.deepEqual(judged!.quote, {
    source_id: 'handbook',
    start: 0,
    end: 63,
    text: 'Refunds are issued within 14 days of the return being received.',
  });
});

test('an unsupported claim needs no quote, and any quote given is not kept', async (t) => {
  const server = await standIn(t, inTurn(verdict('unsupported', 'something the passages never say', 'Not mentioned.')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(1, 'Gift cards never expire.')]));
  assert.deepEqual(outcome, {
    verdicts: [{ index: 1, status: 'unsupported', reason: 'Not mentioned.', quote: null }],
    failures: [],
    usage: outcome.usage,
  });
});

test('claims are judged one call each, and each ends in verdicts or failures', async (t) => {
  const server = await standIn(
    t,
    byClaim({
      a: verdict('supported', 'Shipping is free on orders over $50'),
      b: verdict('unsupported', ''),
      c: completion('not json'),
    }),
  );
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'a'), claim(1, 'b'), claim(2, 'c')]));
  assert.equal(server.requests.length, 3);
  assert.deepEqual(
    outcome.verdicts.map((v) => [v.index, v.status]),
    [
      [0, 'supported'],
      [1, 'unsupported'],
    ],
  );
  assert.deepEqual(outcome.failures, [{ index: 2, reason: 'malformed_reply' }]);
});

test('malformed replies are failures, never verdicts', async (t) => {
  const replies: Record<string, Reply> = {
    'not json': completion('{"status": "supported", '),
    'not an object': completion('["supported"]'),
    'wrong fields': completion(JSON.stringify({ verdict: 'supported', quote: 'x', reason: 'y' })),
    'unknown status': completion(JSON.stringify({ status: 'probably', evidence_quote: '', reason: 'y' })),
    'quote not a string': completion(JSON.stringify({ status: 'supported', evidence_quote: 42, reason: 'y' })),
    'no content': completion(null),
    'no choices': { json: { id: 'x', object: 'chat.completion', choices: [] } },
    'body not json': { text: 'upstream says hello' },
    'json that does not parse': { text: '{"choices": [', headers: { 'content-type': 'application/json' } },
  };
  const server = await standIn(t, byClaim(replies));
  const claims = Object.keys(replies).map((text, index) => claim(index, text));
  const outcome = await judgeAt(server, { maxClaims: 16 }).judgeClaims(input(claims));
  assert.deepEqual(outcome.verdicts, []);
  assert.deepEqual(
    outcome.failures,
    claims.map((c) => ({ index: c.index, reason: 'malformed_reply' })),
  );
  // Malformed content is not retried: the model would likely say the same again.
  assert.equal(server.requests.length, claims.length);
});

test('a refusal, or a reply cut by the content filter, is refused', async (t) => {
  const server = await standIn(
    t,
    byClaim({
      refusal: completion(null, { refusal: 'I cannot help with that.' }),
      filtered: completion(null, { finish_reason: 'content_filter' }),
      'filtered prompt': apiError(400, 'The prompt was filtered', {}, 'content_filter'),
    }),
  );
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'refusal'), claim(1, 'filtered'), claim(2, 'filtered prompt')]));
  assert.deepEqual(outcome.failures, [
    { index: 0, reason: 'refused' },
    { index: 1, reason: 'refused' },
    { index: 2, reason: 'refused' },
  ]);
});

test('a quote that is not in the sources, or too short to prove anything, leaves the claim to the caller', async (t) => {
  const server = await standIn(
    t,
    byClaim({
      invented: verdict('supported', 'Refunds are issued within 30 days of the return being received.'),
      short: verdict('supported', 'Refunds'),
      empty: verdict('contradicted', ''),
    }),
  );
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'invented'), claim(1, 'short'), claim(2, 'empty')]));
  assert.deepEqual(outcome.verdicts, []);
  assert.deepEqual(outcome.failures, [
    { index: 0, reason: 'quote_not_in_sources' },
    { index: 1, reason: 'quote_not_in_sources' },
    { index: 2, reason: 'quote_not_in_sources' },
  ]);
});

test('claims beyond maxClaims are over_budget and never sent', async (t) => {
  const server = await standIn(t, inTurn(verdict('unsupported', '')));
  const outcome = await judgeAt(server, { maxClaims: 2 }).judgeClaims(input([claim(0, 'a'), claim(1, 'b'), claim(2, 'c'), claim(5, 'd')]));
  assert.equal(server.requests.length, 2);
  assert.deepEqual(
    server.requests.map((r) => r.data.claim),
    ['a', 'b'],
  );
  assert.equal(outcome.verdicts.length, 2);
  assert.deepEqual(outcome.failures, [
    { index: 2, reason: 'over_budget' },
    { index: 5, reason: 'over_budget' },
  ]);
  assert.equal(outcome.usage.calls, 2);
});

test('passages are cut to the input budget, keeping the top ones; a budget too small for any is over_budget', async (t) => {
  const long = (word: string) => Array.from({ length: 400 }, () => word).join(' ');
  const passages = [
    { source_id: 'one', text: long('alpha') },
    { source_id: 'two', text: long('bravo') },
    { source_id: 'three', text: long('charlie') },
  ];
  const server = await standIn(t, inTurn(verdict('unsupported', '')));

  const cut = await judgeAt(server, { maxInputTokens: 1000 }).judgeClaims(input([claim(0, 'a claim', passages)]));
  assert.equal(cut.failures.length, 0);
  const sent = server.requests[0]!;
  assert.deepEqual(
    sent.data.passages.map((p: { source_id: string }) => p.source_id),
    ['one', 'two'],
  );
  assert.equal(sent.data.passages[0].text, passages[0]!.text);
  const second: string = sent.data.passages[1].text;
  assert.ok(second.length > 0 && second.length < passages[1]!.text.length);
  assert.ok(passages[1]!.text.startsWith(second));
  const chars = sent.body.messages.reduce((sum: number, m: { content: string }) => sum + m.content.length, 0);
  assert.ok(Math.ceil(chars / 4) <= 1000);

  const none = await judgeAt(server, { maxInputTokens: 100 }).judgeClaims(input([claim(0, 'a claim', passages)]));
  assert.deepEqual(none.failures, [{ index: 0, reason: 'over_budget' }]);
  assert.equal(none.usage.calls, 0);
  assert.equal(server.requests.length, 1);
});

test('a 429 whose Retry-After fits in the budget is waited out and retried', async (t) => {
  const server = await standIn(t, inTurn(apiError(429, 'slow down', { 'retry-after': '1' }), verdict('unsupported', '')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, []);
  assert.equal(outcome.verdicts[0]!.status, 'unsupported');
  assert.equal(server.requests.length, 2);
  assert.equal(outcome.usage.calls, 2);
  // The wait asked for was honoured.
  assert.ok(outcome.usage.ms >= 900, `took ${outcome.usage.ms} ms`);
});

test('retry-after-ms is read as well', async (t) => {
  const server = await standIn(t, inTurn(apiError(429, 'slow down', { 'retry-after-ms': '20' }), verdict('unsupported', '')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, []);
  assert.equal(server.requests.length, 2);
});

test('a 429 whose Retry-After outlasts the budget is rate_limited at once, without waiting', async (t) => {
  const server = await standIn(t, inTurn(apiError(429, 'slow down', { 'retry-after': '30' }), verdict('unsupported', '')));
  const outcome = await judgeAt(server, { timeoutMs: 8000 }).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, [{ index: 0, reason: 'rate_limited' }]);
  assert.equal(server.requests.length, 1);
  assert.ok(outcome.usage.ms < 8000, `took ${outcome.usage.ms} ms`);
});

test('a 429 with retries exhausted is rate_limited', async (t) => {
  const server = await standIn(t, inTurn(apiError(429, 'slow down', { 'retry-after-ms': '10' })));
  const outcome = await judgeAt(server, { maxRetries: 1 }).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, [{ index: 0, reason: 'rate_limited' }]);
  assert.equal(server.requests.length, 2);
});

test('an exhausted quota is rate_limited without a retry', async (t) => {
  const server = await standIn(t, inTurn(apiError(429, 'You exceeded your current quota', {}, 'insufficient_quota')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, [{ index: 0, reason: 'rate_limited' }]);
  assert.equal(server.requests.length, 1);
});

test('5xx replies are retried up to maxRetries, then server_error', async (t) => {
  const server = await standIn(t, inTurn(apiError(500, 'boom')));
  const once = await judgeAt(server, { maxRetries: 1 }).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(once.failures, [{ index: 0, reason: 'server_error' }]);
  assert.equal(once.usage.calls, 2);
  assert.equal(server.requests.length, 2);

  const twice = await judgeAt(server, { maxRetries: 2 }).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(twice.failures, [{ index: 0, reason: 'server_error' }]);
  assert.equal(twice.usage.calls, 3);
  assert.equal(server.requests.length, 5);
});

test('a 503 followed by a good reply is a verdict', async (t) => {
  const server = await standIn(t, inTurn(apiError(503, 'busy', { 'retry-after-ms': '10' }), verdict('unsupported', '')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, []);
  assert.equal(outcome.usage.calls, 2);
});

test('other 4xx replies are server_error without a retry', async (t) => {
  const server = await standIn(t, inTurn(apiError(404, 'The model does not exist')));
  const outcome = await judgeAt(server).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, [{ index: 0, reason: 'server_error' }]);
  assert.equal(server.requests.length, 1);
});

test('a stand-in that never answers ends in timeout within the budget', { timeout: 30_000 }, async (t) => {
  const server = await standIn(t, () => HANG);
  const outcome = await judgeAt(server, { timeoutMs: 500 }).judgeClaims(input([claim(0, 'a'), claim(1, 'b')]));
  assert.deepEqual(outcome.verdicts, []);
  assert.deepEqual(outcome.failures, [
    { index: 0, reason: 'timeout' },
    { index: 1, reason: 'timeout' },
  ]);
  assert.ok(outcome.usage.ms >= 400 && outcome.usage.ms < 10_000, `took ${outcome.usage.ms} ms`);
});

test('a reply slower than the budget is a timeout too, even one that would have been good', { timeout: 30_000 }, async (t) => {
  const server = await standIn(t, inTurn({ ...verdict('unsupported', ''), delayMs: 3000 }));
  const outcome = await judgeAt(server, { timeoutMs: 300 }).judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, [{ index: 0, reason: 'timeout' }]);
});

test("the caller's signal ends the judging early, as a timeout", { timeout: 30_000 }, async (t) => {
  const server = await standIn(t, () => HANG);
  const caller = new AbortController();
  const judging = judgeAt(server, { timeoutMs: 60_000 }).judgeClaims(input([claim(0, 'a')]), caller.signal);
  await until(() => server.requests.length === 1);
  caller.abort();
  const outcome = await judging;
  assert.deepEqual(outcome.failures, [{ index: 0, reason: 'timeout' }]);
});

test('a refused connection is connection', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));

  const judge = createClaimJudge(settings({ baseURL: `http://127.0.0.1:${port}/v1` }));
  const outcome = await judge.judgeClaims(input([claim(0, 'a')]));
  assert.deepEqual(outcome.failures, [{ index: 0, reason: 'connection' }]);
  // One retry, in case the refusal was a passing one.
  assert.equal(outcome.usage.calls, 2);
});

test('at most `concurrency` calls are in flight per tenant; other tenants are not held up by them', { timeout: 30_000 }, async (t) => {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const server = await standIn(t, async () => {
    await gate;
    return verdict('unsupported', '');
  });
  const judge = judgeAt(server, { concurrency: 2, timeoutMs: 20_000 });
  const claims = (tenant: string) => Array.from({ length: 5 }, (_, index) => claim(index, `${tenant} ${index}`));
  const judging = Promise.all([judge.judgeClaims(input(claims('a'), 'a')), judge.judgeClaims(input(claims('b'), 'b'))]);

  await until(() => server.requests.length === 4);
  // Give any call that would break the limit time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(server.requests.length, 4);
  const tenants = server.requests.map((r) => r.data.claim.split(' ')[0]).sort();
  assert.deepEqual(tenants, ['a', 'a', 'b', 'b']);
  open();

  const outcomes = await judging;
  for (const outcome of outcomes) {
    assert.deepEqual(outcome.failures, []);
    assert.equal(outcome.verdicts.length, 5);
  }
  assert.equal(server.requests.length, 10);
  assert.equal(server.maxInFlight, 4);
});

test("a tenant's full waiting line turns further calls away as rate_limited", { timeout: 30_000 }, async (t) => {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const server = await standIn(t, async () => {
    await gate;
    return verdict('unsupported', '');
  });
  // One in flight and sixteen waiting: the line holds 16 per slot.
  const judge = judgeAt(server, { concurrency: 1, maxClaims: 20, timeoutMs: 20_000 });
  const judging = judge.judgeClaims(input(Array.from({ length: 20 }, (_, index) => claim(index, `claim ${index}`))));
  await until(() => server.requests.length === 1);
  open();
  const outcome = await judging;
  assert.equal(outcome.verdicts.length, 17);
  assert.deepEqual(
    outcome.failures.map((f) => f.reason),
    ['rate_limited', 'rate_limited', 'rate_limited'],
  );
  assert.equal(server.maxInFlight, 1);
});

test('Azure: the deployment path, the api-version and the api-key header', async (t) => {
  const server = await standIn(t, inTurn(verdict('supported', 'Shipping is free on orders over $50')));
  const judge = createClaimJudge(
    settings({ provider: 'azure', baseURL: `${server.origin}/`, apiVersion: '2024-10-21', model: 'judge-deployment' }),
  );
  const outcome = await judge.judgeClaims(input([claim(0, 'Shipping is free above $50.')]));
  assert.equal(outcome.verdicts[0]?.status, 'supported');

  const [request] = server.requests;
  assert.equal(request!.url, '/openai/deployments/judge-deployment/chat/completions?api-version=2024-10-21');
  assert.equal(request!.headers['api-key'], KEY);
  assert.equal(request!.headers.authorization, undefined);
  assert.equal(request!.body.max_completion_tokens, 300);
  assert.equal(request!.body.max_tokens, undefined);
});

test('the key never appears in an outcome or on the console, even when the provider echoes it', { timeout: 30_000 }, async (t) => {
  const echo = `Incorrect API key provided: ${KEY}`;
  const server = await standIn(
    t,
    byClaim({
      unauthorised: apiError(401, echo),
      failing: apiError(500, echo),
      limited: apiError(429, echo, { 'retry-after': '600' }),
      garbage: { text: echo, headers: { 'content-type': 'application/json' } },
      hanging: { ...verdict('unsupported', ''), delayMs: 5000 },
    }),
  );
  const printed: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const originals = methods.map((method) => console[method]);
  for (const method of methods) console[method] = (...args: unknown[]) => void printed.push(args.map(String).join(' '));
  try {
    const judge = judgeAt(server, { timeoutMs: 1500 });
    const outcome = await judge.judgeClaims(
      input(['unauthorised', 'failing', 'limited', 'garbage', 'hanging'].map((text, index) => claim(index, text))),
    );
    const answer = await judge.writeAnswer({ tenantId: 'tenant-a', question: 'q', passages: sources });
    assert.deepEqual(
      outcome.failures.map((f) => f.reason),
      ['server_error', 'server_error', 'rate_limited', 'malformed_reply', 'timeout'],
    );
    for (const value of [outcome, answer]) assert.ok(!JSON.stringify(value).includes(KEY));
    assert.ok(!printed.join('\n').includes(KEY));
  } finally {
    methods.forEach((method, index) => {
      console[method] = originals[index]!;
    });
  }
});

test('writeAnswer: a short answer from the passages, citing only the sources it was given', async (t) => {
  const reply = { answer: ' Refunds are issued within 14 days. ', citations: ['handbook', 'elsewhere', 'handbook'] };
  const server = await standIn(t, inTurn(completion(JSON.stringify(reply))));
  const outcome = await judgeAt(server).writeAnswer({ tenantId: 'tenant-a', question: 'How fast are refunds?', passages: sources });
  assert.deepEqual(outcome, {
    answer: 'Refunds are issued within 14 days.',
    citations: [{ source_id: 'handbook' }],
    usage: { calls: 1, inputTokens: 100, outputTokens: 20, ms: (outcome as { usage: { ms: number } }).usage.ms },
  });
  const { body, data } = server.requests[0]!;
  assert.equal(body.response_format.json_schema.name, 'grounded_answer');
  assert.equal(body.temperature, 0);
  assert.match(body.messages[0].content, /ONLY the passages/);
  assert.deepEqual(data, { question: 'How fast are refunds?', passages: sources });
});

test('writeAnswer: failures come back as reasons', { timeout: 30_000 }, async (t) => {
  const replies: Record<string, Reply | typeof HANG> = {
    error: apiError(500, 'boom'),
    empty: completion(JSON.stringify({ answer: '  ', citations: [] })),
    refusal: completion(null, { refusal: 'No.' }),
    hang: HANG,
  };
  const server = await standIn(t, (request) => replies[request.data.question] ?? apiError(400, 'unscripted'));
  const judge = judgeAt(server, { timeoutMs: 500 });
  const reasonFor = async (question: string) => {
    const outcome = await judge.writeAnswer({ tenantId: 'tenant-a', question, passages: sources });
    return 'failure' in outcome ? [outcome.failure, outcome.usage.calls] : outcome;
  };

  assert.deepEqual(await reasonFor('error'), ['server_error', 2]);
  assert.deepEqual(await reasonFor('empty'), ['malformed_reply', 1]);
  assert.deepEqual(await reasonFor('refusal'), ['refused', 1]);
  assert.deepEqual(await reasonFor('hang'), ['timeout', 1]);
  const tooBig = await judgeAt(server, { maxInputTokens: 50 }).writeAnswer({ tenantId: 'tenant-a', question: 'q', passages: sources });
  assert.deepEqual(tooBig, { failure: 'over_budget', usage: { calls: 0, inputTokens: 0, outputTokens: 0, ms: tooBig.usage.ms } });
});
