// The child process a parser runs in: memory outside its heap is bounded by the watchdog, and no
// more than two children are alive at once, a killed one included.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { runIsolated } from '../../src/services/sources/isolated-run.js';

const tasks = new URL('./isolated/tasks.ts', import.meta.url);
const linux = existsSync('/proc/self/status');

describe('runIsolated', { skip: !linux && 'reads /proc' }, () => {
  it('stops a child whose memory outside the heap passes its budget', async () => {
    // A 32 MB heap allows 176 MB resident; 1 GB of buffers must not be reached.
    const result = await runIsolated({ module: tasks, exportName: 'fillBuffers', args: [1024], timeoutMs: 60_000, maxMemoryMb: 32 });
    assert.deepEqual(result.ok ? 'finished' : result.reason, 'out_of_memory');
  });

  it('lets a child within its budget finish', async () => {
    const result = await runIsolated({ module: tasks, exportName: 'fillBuffers', args: [16], timeoutMs: 60_000, maxMemoryMb: 64 });
    assert.deepEqual(result, { ok: true, value: 16 });
  });

  it('keeps at most two children alive, counting one killed at its deadline until it has exited', async () => {
    const spinning = [0, 1].map(() => runIsolated({ module: tasks, exportName: 'spin', args: [], timeoutMs: 300, maxMemoryMb: 32 }));
    const counted = runIsolated<number>({ module: tasks, exportName: 'siblings', args: [], timeoutMs: 60_000, maxMemoryMb: 32 });
    const [first, second, count] = await Promise.all([...spinning, counted]);
    assert.equal(first!.ok ? 'finished' : first!.reason, 'timeout');
    assert.equal(second!.ok ? 'finished' : second!.reason, 'timeout');
    assert.ok(count?.ok);
    assert.equal(count.value, 1, 'the counting child ran alone: both spinning children had exited');
  });
});
