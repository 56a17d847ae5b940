// Runs a parser on untrusted bytes in a child process with its own heap limit, a memory watchdog and
// a deadline. A child process rather than a worker thread: V8 can abort the whole process when a
// worker fails a large allocation (a 40 MB string in a 16 MB heap does), and a hostile file must
// never do that. The heap limit does not bound memory outside the heap (the buffers a zip bomb
// inflates into): the parent reads the child's resident size from /proc every 20 ms and kills it
// past its budget. At most two children run at once, counted until each has exited.
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export type IsolatedResult<T> = { ok: true; value: T } | { ok: false; reason: 'timeout' | 'out_of_memory' | 'crashed'; detail: string };

export interface IsolatedTask {
  /** A module of this server, from `siblingModule`. */
  module: URL;
  exportName: string;
  /** Structured-cloned into the child (Uint8Array included). */
  args: unknown[];
  timeoutMs: number;
  /** The child's heap; its resident size may reach this and a half, plus 128 MB for Node itself. */
  maxMemoryMb: number;
}

const watchdogIntervalMs = 20;
const residentBudgetMb = (heapMb: number) => Math.round(heapMb * 1.5) + 128;

/** A process's resident size in MB, from /proc (Linux); null where there is none or it has gone. */
async function residentMb(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
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
    let result: IsolatedResult<T> | null = null;
    let exited = false;
    // The slot is given back only once the child has exited, so that no more than the cap are alive.
    const finish = () => {
      if (!result || !exited) return;
      clearTimeout(timer);
      clearInterval(watchdog);
      resolve(result);
    };
    const settle = (outcome: IsolatedResult<T>) => {
      result ??= outcome;
      if (!exited) child.kill('SIGKILL');
      finish();
    };
    const timer = setTimeout(
      () => settle({ ok: false, reason: 'timeout', detail: `Took longer than ${task.timeoutMs} ms.` }),
      task.timeoutMs,
    );
    const budget = residentBudgetMb(task.maxMemoryMb);
    let reading = false;
    const watchdog = setInterval(() => {
      if (reading || child.pid === undefined) return;
      reading = true;
      void residentMb(child.pid).then((mb) => {
        reading = false;
        if (mb !== null && mb > budget) settle({ ok: false, reason: 'out_of_memory', detail: `Needed more than ${budget} MB of memory.` });
      });
    }, watchdogIntervalMs);
    child.once('message', (value) => settle({ ok: true, value: value as T }));
    child.once('error', (error) => {
      // A child that never started never exits.
      if (child.pid === undefined) exited = true;
      settle({ ok: false, reason: 'crashed', detail: error.message });
    });
    child.once('exit', (code, signal) => {
      exited = true;
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
