// The fenced code blocks of a markdown file, and a runner for shell blocks that also stops what a
// block leaves running in the background (`npx @groundcheck/mock ... &`).
import { spawn } from 'node:child_process';

export interface CodeBlock {
  /** The nearest `##` or `###` heading above the block. */
  heading: string;
  /** The fence's info string: `sh`, `ts`, `yaml`... */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** `<heading> (<lang> <n>)`, n counting that heading's blocks of that language from 1. */
  name: string;
}

/** The blocks between ``` fences at the start of a line; an indented fence is refused, not guessed at. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const counts = new Map<string, number>();
  let heading = '';
  let open: { lang: string; line: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (open) {
      if (/^```\s*$/.test(text)) {
        const key = `${heading} (${open.lang}`;
        const n = (counts.get(key) ?? 0) + 1;
        counts.set(key, n);
        blocks.push({ heading, lang: open.lang, code: open.lines.join('\n'), line: open.line, name: `${key} ${n})` });
        open = undefined;
      } else open.lines.push(text);
    } else if (text.startsWith('```')) open = { lang: text.slice(3).trim(), line: index + 1, lines: [] };
    else if (/^\s+```/.test(text)) throw new Error(`line ${index + 1}: an indented fence, which this parser does not read`);
    else if (/^#{2,3} /.test(text)) heading = text.replace(/^#+ /, '').trim();
  });
  if (open) throw new Error(`line ${open.line}: a fence that is never closed`);
  return blocks;
}

export interface ShellRun {
  /** bash's exit code; null when the block was killed for running too long. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` with `bash -euo pipefail` in a process group of its own; once bash exits, whatever it
 * left in the background is stopped with the group (SIGTERM, then SIGKILL after 20 s).
 */
export async function runShell(script: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutInMs: number }): Promise<ShellRun> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // Background jobs keep the pipes open, so 'close' comes only once the group is gone.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // ESRCH: nothing of the group is left.
    }
  };
  const deadline = setTimeout(() => killGroup('SIGKILL'), options.timeoutInMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('exit', (exitCode) => resolve(exitCode));
    child.once('error', reject);
  });
  clearTimeout(deadline);
  killGroup('SIGTERM');
  const straggler = setTimeout(() => killGroup('SIGKILL'), 20_000);
  await closed;
  clearTimeout(straggler);
  return { code, stdout, stderr };
}
