// A stand-in for an OpenAI-compatible chat-completions API on 127.0.0.1, so the judge's tests go through the real
// `openai` package and real HTTP. Each test scripts the replies; the stand-in records every request and how many
// were in flight at once.
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The user message's JSON: question, claim and passages as the judge sent them. */
  data: any;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON; `text` is sent as it is. */
  json?: unknown;
  text?: string;
  delayMs?: number;
}

/** Never answered: the request stays open until the judge gives up or the stand-in closes. */
export const HANG = 'hang';

export type Script = (request: ChatRequest, number: number) => Reply | typeof HANG | Promise<Reply | typeof HANG>;

export interface ChatStandIn {
  /** `http://127.0.0.1:<port>/v1`, the OpenAI-style base URL. */
  baseURL: string;
  /** `http://127.0.0.1:<port>`, an Azure-style endpoint. */
  origin: string;
  requests: ChatRequest[];
  readonly inFlight: number;
  readonly maxInFlight: number;
  close(): Promise<void>;
}

const parse = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

export async function startChatStandIn(script: Script): Promise<ChatStandIn> {
  const requests: ChatRequest[] = [];
  const state = { inFlight: 0, maxInFlight: 0 };
  const answer = (response: ServerResponse, reply: Reply) => {
    const body = reply.json === undefined ? (reply.text ?? '') : JSON.stringify(reply.json);
    const type = reply.json === undefined ? 'text/plain' : 'application/json';
    response.writeHead(reply.status ?? 200, { 'content-type': type, ...reply.headers }).end(body);
  };
  const server = http.createServer((request, response) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    response.on('close', () => state.inFlight--);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = parse(Buffer.concat(chunks).toString());
      const user = body?.messages?.find((message: { role: string }) => message.role === 'user');
      const recorded = { url: request.url ?? '', headers: request.headers, body, data: parse(user?.content ?? '') };
      requests.push(recorded);
      const reply = await script(recorded, requests.length);
      if (reply === HANG) return;
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if (!response.destroyed) answer(response, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A chat completion whose message is `content`, as OpenAI sends it. */
export function completion(content: string | null, extra: { refusal?: string; finish_reason?: string } = {}): Reply {
  return {
    json: {
      id: 'chatcmpl-stand-in',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'stand-in',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: extra.refusal ?? null },
          finish_reason: extra.finish_reason ?? 'stop',
        },
      ],
      usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
    },
  };
}

export const verdict = (status: string, evidence_quote: string, reason = 'Because the passage says so.') =>
  completion(JSON.stringify({ status, evidence_quote, reason }));

/** An OpenAI-style error body. */
export const apiError = (status: number, message: string, headers: Record<string, string> = {}, code: string | null = null): Reply => ({
  status,
  headers,
  json: { error: { message, type: 'error', param: null, code } },
});

/** Resolves once `condition` holds, polling; fails after `ms` so that a broken test ends. */
export async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const ends = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > ends) throw new Error('the condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
