// The corrected answer as a change against the original, word by word.
import { diffWords } from 'diff';

export function CorrectedAnswer({ original, corrected }: { original: string; corrected: string }) {
  if (original === corrected) return <p>Nothing needed correcting: the corrected answer is the original.</p>;
  return (
    <p className="diff-text">
      {diffWords(original, corrected).map((part, index) => {
        const key = `${index}-${part.value.length}`;
        if (part.added)
          return (
            <ins key={key} className="diff">
              <span className="visually-hidden">added: </span>
              {part.value}
            </ins>
          );
        if (part.removed)
          return (
            <del key={key} className="diff">
              <span className="visually-hidden">removed: </span>
              {part.value}
            </del>
          );
        return <span key={key}>{part.value}</span>;
      })}
    </p>
  );
}
