// A chart with its text alternative: the drawing is hidden from assistive technology and the same
// figures follow as a table, folded under the chart, that a screen reader or keyboard user opens.
import type { ReactNode } from 'react';

export interface FiguresTableProps {
  columns: string[];
  rows: { key: string; header: string; cells: string[] }[];
}

export function ChartFigure({ title, chart, table }: { title: string; chart: ReactNode; table: FiguresTableProps }) {
  return (
    <figure className="chart-figure card">
      <figcaption>{title}</figcaption>
      <div className="chart" aria-hidden="true">
        {chart}
      </div>
      <details className="figures-table">
        <summary>{title} as a table</summary>
        <FiguresTable {...table} />
      </details>
    </figure>
  );
}

export function FiguresTable({ columns, rows }: FiguresTableProps) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.header}</th>
              {row.cells.map((cell, index) => (
                <td key={columns[index + 1]}>{cell}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
