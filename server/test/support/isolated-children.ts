// How many parser child processes (services/sources/isolated-child) a process has alive, from /proc.
import { readdir, readFile } from 'node:fs/promises';

export async function isolatedChildrenOf(parentPid: number): Promise<number> {
  let count = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The parent pid is the fourth field, after the command in parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== parentPid) continue;
    if ((await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).includes('isolated-child')) count++;
  }
  return count;
}
