// HTTP below fetch: requests fetch would refuse to send or would change (no Content-Type, bad header
// bytes, unknown methods, conflicting lengths), and requests cut off part-way.
import { connect, type Socket } from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as bytes on a fresh connection and reads until the server closes it. */
export function sendRaw(baseUrl: string, request: string | Buffer, options: { timeoutMs?: number } = {}): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no complete answer in time'));
    }, options.timeoutMs ?? 5000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parseResponse(Buffer.concat(chunks).toString('utf8')));
    });
    socket.write(request);
  });
}

/** A request whose headers arrive but whose body stops short; the socket is left to the caller. */
export function openRaw(baseUrl: string, request: string): Promise<Socket> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(request);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

function parseResponse(text: string): RawReply {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, end === -1 ? text.length : end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  let body = end === -1 ? '' : text.slice(end + 4);
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body);
  return { status: Number(statusLine?.split(' ')[1] ?? 0), headers, body };
}

function unchunk(body: string): string {
  let out = '';
  for (let at = 0; at < body.length; ) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, lineEnd), 16);
    if (!size) break;
    out += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
  return out;
}
