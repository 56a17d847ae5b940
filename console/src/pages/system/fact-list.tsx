// Facts as a definition list: a term and its description, which may be a sentence or a list.
import type { ReactNode } from 'react';

export function FactList({ facts }: { facts: { term: string; description: ReactNode }[] }) {
  return (
    <dl className="card-facts">
      {facts.map((fact) => (
        <div key={fact.term}>
          <dt>{fact.term}</dt>
          <dd>{fact.description}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Sentences({ items }: { items: string[] }) {
  return (
    <ul>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
