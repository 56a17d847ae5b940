// Named counts as horizontal bars (findings by category, validations by review state).
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFigure } from './chart-figure';
import { axisTick, gridStroke, tooltipProps } from './chart-theme';
import { count } from './figures';

interface CountBarChartProps {
  title: string;
  /** What each bar is (the table's first column) and what it counts (its second). */
  rowHeading: string;
  label: string;
  counts: { name: string; value: number }[];
}

export function CountBarChart({ title, rowHeading, label, counts }: CountBarChartProps) {
  return (
    <ChartFigure
      title={title}
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={counts} layout="vertical" accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={gridStroke} horizontal={false} />
            <XAxis type="number" tick={axisTick} allowDecimals={false} />
            <YAxis type="category" dataKey="name" tick={axisTick} width={140} />
            <Tooltip {...tooltipProps} />
            <Bar dataKey="value" name={label} fill="var(--accent)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      }
      table={{
        columns: [rowHeading, label],
        rows: counts.map((entry) => ({ key: entry.name, header: entry.name, cells: [count(entry.value)] })),
      }}
    />
  );
}
