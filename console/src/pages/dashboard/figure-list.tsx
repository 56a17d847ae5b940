// Named figures as a definition list: a label and its value on each line.
export function FigureList({ figures }: { figures: { label: string; value: string }[] }) {
  return (
    <dl className="figures">
      {figures.map((figure) => (
        <div key={figure.label}>
          <dt>{figure.label}</dt>
          <dd>{figure.value}</dd>
        </div>
      ))}
    </dl>
  );
}
