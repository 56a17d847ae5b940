// How the dashboard writes its figures: counts, shares, durations and sizes in the reader's locale.
import { formatDuration, intervalToDuration } from 'date-fns';

const countFormat = new Intl.NumberFormat();
const shareFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const scoreFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

export function count(value: number): string {
  return countFormat.format(value);
}

/** A rate from 0 to 1 as a percentage; null (nothing to measure it on) as a dash. */
export function share(value: number | null): string {
  return value === null ? '—' : shareFormat.format(value);
}

export function score(value: number): string {
  return scoreFormat.format(value);
}

/** Seconds as words ("2 hours 5 minutes"); null (nothing decided) as a dash. */
export function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  const whole = Math.round(seconds);
  if (whole < 1) return 'under a second';
  return formatDuration(intervalToDuration({ start: 0, end: whole * 1000 }));
}

const byteUnits = ['bytes', 'kB', 'MB', 'GB', 'TB'];

export function bytes(value: number): string {
  const power = value > 0 ? Math.min(Math.floor(Math.log10(value) / 3), byteUnits.length - 1) : 0;
  const scaled = value / 1000 ** power;
  return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: power === 0 ? 0 : 1 }).format(scaled)} ${byteUnits[power]}`;
}
