// Tables written with "|" between cells, one row a line: a value in a cell is the value of its row's
// label (the first cell) under its column's header ("Access hours | Mon-Fri, 7:00-20:00 | 24 hours"
// under "Feature | Flex Desk | Fixed Desk" gives Flex Desk's access hours), words that sit on other lines.
import type { Passage } from './passages.js';

export interface Cell {
  /** Offsets in the row's text. */
  start: number;
  end: number;
}

/** A row cannot hold more cells than this: a longer line of bars is no table a reader would follow. */
const maxCells = 24;

function trimmed(text: string, start: number, end: number): Cell {
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/** The cells of a line with "|" between them (a leading or a trailing bar, as Markdown writes, opens no cell). */
export function cellsOf(text: string): Cell[] {
  if (!text.includes('|')) return [];
  const bars = [...text.matchAll(/\|/g)].map((m) => m.index);
  if (bars.length > maxCells) return [];
  let start = 0;
  const cells = [...bars, text.length].map((end) => {
    const cell = trimmed(text, start, end);
    start = end + 1;
    return cell;
  });
  if (cells[0]!.end === cells[0]!.start) cells.shift();
  if (cells.length > 0 && cells.at(-1)!.end === cells.at(-1)!.start) cells.pop();
  return cells.length >= 2 ? cells : [];
}

/**
 * Each table row's header row, by passage index: a run of two lines or more on consecutive passages of
 * one source with the same number of cells, whose first line is the header. A lone line of cells
 * ("Version 4.2 | Effective from 1 March 2025") is no table. (Markdown's rule under the header, "|---|",
 * holds no word and so is no passage.)
 */
export function tableHeaders(passages: Passage[]): Map<number, number> {
  const headers = new Map<number, number>();
  let header = -1;
  let width = 0;
  passages.forEach((passage, id) => {
    const cells = cellsOf(passage.text).length;
    const previous = passages[id - 1];
    const continues = header >= 0 && cells === width && previous?.source === passage.source;
    if (continues) headers.set(id, header);
    else [header, width] = cells >= 2 ? [id, cells] : [-1, 0];
  });
  return headers;
}
