// RFC 4180 CSV (through csv-stringify) with formula neutralisation: a text cell that a spreadsheet
// would run as a formula gets a leading ' so it is shown as text. That is a cell whose first
// character other than white space (which spreadsheets skip) is =, +, - or @, or their fullwidth
// forms, which some spreadsheets read as the ASCII ones; and a cell starting with a tab or carriage
// return. Numbers are written as they are: they cannot carry a formula.
import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | boolean | null | undefined;

const formulaStart = /^(?:[\t\r]|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

export function neutraliseFormula(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

/** The options every CSV file of the service is written with: CRLF records, neutralised text. */
export const csvOptions = {
  record_delimiter: 'windows',
  cast: { string: neutraliseFormula, boolean: (value: boolean) => String(value) },
} as const;

/** One record, CRLF-terminated as RFC 4180 asks. */
export function csvRow(cells: readonly CsvCell[]): string {
  return stringify([cells.map((cell) => cell ?? '')], csvOptions);
}

/** One cell as it appears in a record (quoted when it must be). */
export function csvCell(cell: CsvCell): string {
  return csvRow([cell]).slice(0, -2);
}
