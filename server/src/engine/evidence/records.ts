// Records written as lines of fields, one "Label: value" a line ("Room 2: Garden Twin" / "Rate: Advance
// Saver" / "Price: £333"): every line of the run speaks of the same thing, so what one line names goes
// with what the others give, as the words of one sentence do. A blank line, a line that is not a field,
// another source, or a label the run already has ("Plan:" twice: the next record) ends the run.
import type { EngineSource } from '../types.js';
import type { Passage } from './passages.js';

/** A field line: a short label of at most five words, opening with a capital, then a colon and a value. A list item's is not a record's. */
const fieldLine = /^(\p{Lu}[\p{L}\p{N}'’&/(). -]{0,40}?):\s+\S/u;
const maxLabelWords = 5;

interface Line {
  source: number;
  start: number;
  /** The field's label, lower-cased, when the line is a field. */
  label: string | undefined;
}

function lineOf(text: string, source: number, offset: number): Line {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  const match = fieldLine.exec(text.slice(start, end === -1 ? text.length : end));
  const label = match && match[1]!.trim().split(/\s+/).length <= maxLabelWords ? match[1]!.trim().toLowerCase() : undefined;
  return { source, start, label };
}

/** Whether nothing but one line break separates the line at `from` from the line at `to`. */
function adjacent(text: string, from: number, to: number): boolean {
  const gap = text.slice(text.indexOf('\n', from), to);
  return (gap.match(/\n/g)?.length ?? 0) === 1;
}

interface Run {
  labels: Set<string>;
  members: number[];
}

/** Whether `line` goes on with the record `run`: a field of another label on the very next line of the same source. */
function joins(run: Run | undefined, line: Line, previous: Line | undefined, text: string): boolean {
  return (
    run !== undefined &&
    line.label !== undefined &&
    previous?.source === line.source &&
    !run.labels.has(line.label) &&
    adjacent(text, previous.start, line.start)
  );
}

/** How many passages either side of one its record is looked for among: a record is a few lines long. */
const window = 40;

/**
 * The passages of the record of field lines that passage `id` is in, by index; none outside a run of two field
 * lines or more. Read from the passages around it only, so that a large source costs no more than a small one.
 */
export function fieldRecord(sources: EngineSource[], passages: Passage[], id: number): number[] {
  const from = Math.max(0, id - window);
  const near = passages.slice(from, id + window + 1);
  const run = runsOf(sources, near).find((r) => r.members.includes(id - from));
  return run && run.labels.size >= 2 ? run.members.map((m) => m + from) : [];
}

/** The runs of field lines, each with its labels and its passages. */
function runsOf(sources: EngineSource[], passages: Passage[]): Run[] {
  const runs: Run[] = [];
  let run: Run | undefined;
  let previous: Line | undefined;
  for (const { line, members } of linesOf(sources, passages)) {
    if (!joins(run, line, previous, sources[line.source]!.text)) {
      run = line.label === undefined ? undefined : { labels: new Set(), members: [] };
      if (run) runs.push(run);
    }
    if (run) {
      if (line.label !== undefined) run.labels.add(line.label);
      run.members.push(...members);
    }
    previous = line;
  }
  return runs;
}

/** The passages grouped by the line they sit on: a line's second sentence ("Payment: … Your card is held.") goes with its first. */
function linesOf(sources: EngineSource[], passages: Passage[]): { line: Line; members: number[] }[] {
  const lines: { line: Line; members: number[] }[] = [];
  passages.forEach((passage, id) => {
    const line = lineOf(sources[passage.source]!.text, passage.source, passage.start);
    const last = lines.at(-1);
    if (last && last.line.source === line.source && last.line.start === line.start) last.members.push(id);
    else lines.push({ line, members: [id] });
  });
  return lines;
}
