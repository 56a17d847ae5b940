// Validations per day, stacked by outcome: with no issue found, and with at least one.
import type { Analytics } from '@groundcheck/sdk';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ChartFigure } from './chart-figure';
import { axisTick, gridStroke, legendProps, tooltipProps } from './chart-theme';
import { dayLabel } from './day-range';
import { count } from './figures';

const outcomes = [
  { key: 'clean', name: 'No issues', colour: 'var(--supported)' },
  { key: 'with_issues', name: 'With issues', colour: 'var(--contradicted)' },
] as const;

export function DailyOutcomesChart({ daily }: { daily: Analytics['daily'] }) {
  const days = daily.map((day) => ({ date: day.date, clean: day.validations - day.with_issues, with_issues: day.with_issues }));
  return (
    <ChartFigure
      title="Validations per day"
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={days} accessibilityLayer={false} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid stroke={gridStroke} vertical={false} />
            <XAxis dataKey="date" tick={axisTick} tickFormatter={(date: string) => dayLabel(date, 'd MMM')} minTickGap={16} />
            <YAxis tick={axisTick} allowDecimals={false} width={40} />
            <Tooltip {...tooltipProps} labelFormatter={(date) => dayLabel(String(date))} />
            <Legend {...legendProps} />
            {outcomes.map((outcome) => (
              <Bar
                key={outcome.key}
                dataKey={outcome.key}
                name={outcome.name}
                stackId="outcome"
                fill={outcome.colour}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      }
      table={{
        columns: ['Day', ...outcomes.map((outcome) => outcome.name), 'All validations'],
        rows: daily.map((day) => ({
          key: day.date,
          header: dayLabel(day.date),
          cells: [count(day.validations - day.with_issues), count(day.with_issues), count(day.validations)],
        })),
      }}
    />
  );
}
