// A model's verdict stands only on evidence we can point at: its quote must really occur in a source. Matching
// forgives what models change without meaning to (runs of whitespace, curly or straight quotes, case) and nothing
// else, and the span is reported in the source's own text.

export interface QuoteLocation {
  source_id: string;
  /** UTF-16 offsets into the source's original text; `end` is exclusive. */
  start: number;
  end: number;
  /** The source's own text at that span, not the model's spelling of it. */
  text: string;
}

/** Shorter quotes match too much to prove anything. */
const MIN_QUOTE_CHARS = 12;
const MIN_QUOTE_WORDS = 3;

const STRAIGHT: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '\u2032': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u201F': '"',
  '\u2033': '"',
};

interface Normalised {
  text: string;
  /** For each unit of `text`, the span of the original it came from. */
  starts: number[];
  ends: number[];
}

function normalise(original: string): Normalised {
  const result: Normalised = { text: '', starts: [], ends: [] };
  let spaceAt = -1;
  let offset = 0;
  for (const char of original) {
    const at = offset;
    offset += char.length;
    if (/\s/u.test(char)) {
      if (spaceAt < 0) spaceAt = at;
      continue;
    }
    if (spaceAt >= 0 && result.text) {
      result.text += ' ';
      result.starts.push(spaceAt);
      result.ends.push(at);
    }
    spaceAt = -1;
    // Lower-casing may lengthen a character; every unit it yields maps back to the whole of it.
    for (const unit of (STRAIGHT[char] ?? char).toLowerCase()) {
      result.text += unit;
      for (let i = 0; i < unit.length; i++) {
        result.starts.push(at);
        result.ends.push(offset);
      }
    }
  }
  return result;
}

const words = new Intl.Segmenter(undefined, { granularity: 'word' });

function isEvidence(quote: string): boolean {
  if (quote.length < MIN_QUOTE_CHARS) return false;
  let count = 0;
  for (const segment of words.segment(quote)) if (segment.isWordLike && ++count >= MIN_QUOTE_WORDS) return true;
  return false;
}

/**
 * A finder over the given sources; each source is normalised once, on the first quote looked up. Returns the first
 * occurrence, in source order, or null when the quote is absent or too short to be evidence.
 */
export function quoteFinder(sources: readonly { source_id: string; text: string }[]): (quote: string) => QuoteLocation | null {
  let normalised: Normalised[] | undefined;
  return (quote) => {
    // Models sometimes wrap the quote in quotation marks of their own.
    const wanted = normalise(quote).text.replace(/^["' ]+|["' ]+$/g, '');
    if (!isEvidence(wanted)) return null;
    normalised ??= sources.map((source) => normalise(source.text));
    for (const [index, source] of sources.entries()) {
      const { text, starts, ends } = normalised[index]!;
      const at = text.indexOf(wanted);
      if (at < 0) continue;
      const start = starts[at]!;
      const end = ends[at + wanted.length - 1]!;
      return { source_id: source.source_id, start, end, text: source.text.slice(start, end) };
    }
    return null;
  };
}
