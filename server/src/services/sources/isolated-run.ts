// Runs a parser on untrusted bytes in a child process with its own heap limit and a deadline.
// A child process rather than a worker thread: V8 can abort the whole process when a worker fails a
// large allocation (a 40 MB string in a 16 MB heap does), and a hostile file must never do that.
import { fork } from 'node:child_process';

export type IsolatedResult<T> = { ok: true; value: T } | { ok: false; reason: 'timeout' | 'out_of_memory' | 'crashed'; detail: string };

export interface IsolatedTask {
  /** A module of this server, from `siblingModule`. */
  module: URL;
  exportName: string;
  /** Structured-cloned into the child (Uint8Array included). */
  args: unknown[];
  timeoutMs: number;
  maxMemoryMb: number;
}

// Built, these modules are .js; under tsx (tests, development) they are .ts and the child needs tsx too.
const underTsx = import.meta.url.endsWith('.ts');

/** The URL of a module next to `importMetaUrl`, named without extension, in the running form (.ts or .js). */
export function siblingModule(importMetaUrl: string, name: string): URL {
  return new URL(`./${name}${underTsx ? '.ts' : '.js'}`, importMetaUrl);
}

const childEntry = siblingModule(import.meta.url, 'isolated-child');

/** At most this many children at once (the machine has two cores); the rest wait their turn. */
const maxConcurrentChildren = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= maxConcurrentChildren) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift(); // hand the slot straight to the next waiter, or free it
    if (next) next();
    else running--;
  }
}

function runChild<T>(task: IsolatedTask): Promise<IsolatedResult<T>> {
  return new Promise((resolve) => {
    const child = fork(childEntry, [], {
      execArgv: [`--max-old-space-size=${task.maxMemoryMb}`, ...(underTsx ? ['--import', import.meta.resolve('tsx')] : [])],
      // The parser sees no secrets from the server's environment.
      env: { NODE_ENV: process.env.NODE_ENV ?? 'production' },
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    let settled = false;
    const settle = (result: IsolatedResult<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(result);
    };
    const timer = setTimeout(
      () => settle({ ok: false, reason: 'timeout', detail: `Took longer than ${task.timeoutMs} ms.` }),
      task.timeoutMs,
    );
    child.once('message', (value) => settle({ ok: true, value: value as T }));
    child.once('error', (error) => settle({ ok: false, reason: 'crashed', detail: error.message }));
    child.once('exit', (code, signal) => {
      // V8 aborts (SIGABRT, or exit code 134) when the heap limit is reached.
      const outOfMemory = signal === 'SIGABRT' || code === 134;
      settle(
        outOfMemory
          ? { ok: false, reason: 'out_of_memory', detail: `Needed more than ${task.maxMemoryMb} MB.` }
          : { ok: false, reason: 'crashed', detail: `Stopped without a result (${signal ?? `exit code ${code}`}).` },
      );
    });
    child.send({ module: task.module.href, exportName: task.exportName, args: task.args });
  });
}

export function runIsolated<T>(task: IsolatedTask): Promise<IsolatedResult<T>> {
  return withSlot(() => runChild<T>(task));
}
