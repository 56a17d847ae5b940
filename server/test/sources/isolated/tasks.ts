// Tasks for the isolated-run tests, run in the child process as a parser would be.

/** Fills memory outside the heap (as inflated buffers do) until stopped. */
export function fillBuffers(mb: number): number {
  const held: Buffer[] = [];
  for (let i = 0; i < mb; i++) held.push(Buffer.alloc(1024 * 1024, 1));
  return held.length;
}

/** Spins until killed. */
export function spin(): never {
  for (;;) {
    // busy
  }
}

/** How many isolated children share this one's parent (itself included), from /proc. */
export async function siblings(): Promise<number> {
  const { readdir, readFile } = await import('node:fs/promises');
  let count = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The parent pid is the fourth field, after the command in parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const command = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (ppid === process.ppid && command.includes('isolated-child')) count++;
  }
  return count;
}
