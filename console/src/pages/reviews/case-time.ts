// When something happened, as the review screens print it: the reader's own time zone.
import { format, parseISO } from 'date-fns';

export function caseTime(iso: string): string {
  return format(parseISO(iso), 'd MMM yyyy, HH:mm');
}
