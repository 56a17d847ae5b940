// RFC 4180 CSV with formula neutralisation: a text cell that a spreadsheet would run as a formula
// gets a leading ' so it is shown as text. That is a cell whose first character other than white
// space (which spreadsheets skip) is =, +, - or @, or their fullwidth forms, which some spreadsheets
// read as the ASCII ones; and a cell starting with a tab or carriage return. Numbers are written as
// they are: they cannot carry a formula.

export type CsvCell = string | number | boolean | null | undefined;

const formulaStart = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;
const needsQuotes = /[",\r\n]/;

export function csvCell(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return String(cell);
  const text = formulaStart.test(cell) ? `'${cell}` : cell;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated as RFC 4180 asks. */
export function csvRow(cells: readonly CsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
