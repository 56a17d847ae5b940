// SDK overhead (issue 22): `client.auth.me()` of the built SDK against a raw `fetch` of the same
// request (same headers, same body, JSON parsed), sequential calls on loopback, in interleaved rounds
// of the same run. The target, the SDK within 1.10× raw fetch, is on the route itself: the reference
// server in this process on the embedded emulator; a miss sets a non-zero exit code. A second server
// that replays the route's recorded reply and does nothing else shows the floor: the client's whole
// cost with no server time to dilute it, printed without a target.
//
// Usage: npm run build -w @groundcheck/sdk && npm run bench -- sdk [--calls=300] [--rounds=9]
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer } from '../server/test/support/harness.js';
import { numberArgument } from './support/bench-server.js';
import { type ReceivedRequest, recordReply, startReplayServer } from './support/replay-server.js';

const calls = numberArgument('calls', 300);
const rounds = numberArgument('rounds', 9);
const target = 1.1;
setTimeout(
  () => {
    console.error('sdk benchmark: gave up after 20 minutes');
    process.exit(2);
  },
  20 * 60 * 1000,
).unref();

const dist = fileURLToPath(new URL('../sdk/dist/index.js', import.meta.url));
if (!existsSync(dist)) {
  console.error('sdk benchmark: build the SDK first (npm run build -w @groundcheck/sdk)');
  process.exit(1);
}
const { createClient } = (await import(dist)) as typeof import('../sdk/src/index.js');
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});

const reference = await startTestServer();
const credentials = { customerId: 'acme', apiKey: reference.fixture.apiKeys.acme!.admin };
const recorded = await recordReply(await reference.call('/auth/me', { customer_id: 'acme', api_key: credentials.apiKey }).then(asResponse));
if (recorded.status !== 200) throw new Error(`the reference server answered /auth/me with ${recorded.status}`);
const replay = await startReplayServer(recorded);

// The raw request copies what the SDK sends, as the server receives it.
await createClient({ baseUrl: replay.url, ...credentials }).auth.me();
const sent = replay.last()!;
const rawInit = {
  method: sent.method,
  headers: Object.fromEntries(
    Object.entries(sent.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as [string, string][],
  ),
};
const raw = (url: string) => async () => {
  const response = await fetch(`${url}/auth/me`, { ...rawInit, body: sent.body });
  return response.json();
};
await raw(replay.url)();
if (describe(replay.last()!) !== describe(sent)) {
  throw new Error(`the raw request differs from the SDK's:\n${describe(replay.last()!)}\n${describe(sent)}`);
}

console.log(`sdk benchmark: POST /auth/me with an API key, ${rounds} interleaved rounds × ${calls} sequential calls per variant`);
console.log(`request: ${describe(sent)}`);
let met = true;
try {
  for (const [label, url, targeted] of [
    ['reference server (in process): the target', reference.url, true],
    ['replayed reply (node:http): the floor, no target', replay.url, false],
  ] as const) {
    const client = createClient({ baseUrl: url, ...credentials });
    met = compare(label, await measure(raw(url), () => client.auth.me()), targeted) && met;
  }
} finally {
  await replay.close();
  await reference.close();
}
if (!met) process.exitCode = 1;

interface Rounds {
  raw: number[];
  sdk: number[];
}

/** Per-call microseconds of each round, raw and SDK alternating which goes first. */
async function measure(rawCall: () => Promise<unknown>, sdkCall: () => Promise<unknown>): Promise<Rounds> {
  const block = async (call: () => Promise<unknown>) => {
    collect();
    const started = performance.now();
    for (let i = 0; i < calls; i++) await call();
    return ((performance.now() - started) * 1000) / calls;
  };
  await block(rawCall);
  await block(sdkCall);
  const result: Rounds = { raw: [], sdk: [] };
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      result.raw.push(await block(rawCall));
      result.sdk.push(await block(sdkCall));
    } else {
      result.sdk.push(await block(sdkCall));
      result.raw.push(await block(rawCall));
    }
  }
  return result;
}

function compare(label: string, { raw, sdk }: Rounds, targeted: boolean): boolean {
  const ratio = median(sdk) / median(raw);
  const paired = raw.map((r, i) => sdk[i]! / r).sort((a, b) => a - b);
  const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  console.log(`\n${label}`);
  console.log(`  raw fetch   median ${median(raw).toFixed(0)} µs/call (rounds ${spread(raw)})`);
  console.log(`  client SDK  median ${median(sdk).toFixed(0)} µs/call (rounds ${spread(sdk)})`);
  console.log(
    `  ratio ${ratio.toFixed(3)}× (per round ${paired[0]!.toFixed(3)}–${paired.at(-1)!.toFixed(3)}×; overhead ${(median(sdk) - median(raw)).toFixed(0)} µs/call)${targeted ? `; target ≤ ${target}×: ${ratio <= target ? 'met' : 'MISSED'}` : ''}`,
  );
  return !targeted || ratio <= target;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Method, path, headers (sorted) and body of a received request, for comparing two. */
function describe(request: ReceivedRequest): string {
  const headers = Object.entries(request.headers)
    .filter(([name]) => name !== 'connection')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}: ${name === 'host' ? '…' : value}`);
  return `${request.method} ${request.path} {${headers.join(', ')}} ${request.body.replace(credentials.apiKey, 'gck_…')}`;
}

function asResponse(reply: { status: number; headers: Headers; text: string }): Response {
  return new Response(reply.text, { status: reply.status, headers: reply.headers });
}
