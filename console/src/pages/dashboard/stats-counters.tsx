// The tenant's counters as they are now, whatever range the analytics below cover.
import { useQuery } from '@tanstack/react-query';
import { ProblemMessage } from '../../ui/problem-message';
import { statsQuery } from './dashboard-queries';
import { FigureList } from './figure-list';
import { bytes, count } from './figures';
import { labelled, modeLabels, reviewStateLabels } from './labels';

export function StatsCounters() {
  const stats = useQuery(statsQuery);
  if (stats.isError) return <ProblemMessage error={stats.error} />;
  if (!stats.data) return <p aria-busy="true">Loading the counters…</p>;
  const { validations, reviews, sources, templates } = stats.data;
  const cards = [
    {
      title: 'Validations',
      figures: [
        { label: 'This month', value: count(validations.this_month) },
        { label: 'In retained history', value: count(validations.total) },
        { label: 'With issues', value: count(validations.with_issues) },
      ],
    },
    { title: 'By mode', figures: counted(labelled(modeLabels, validations.by_mode)) },
    { title: 'Reviews', figures: counted(labelled(reviewStateLabels, reviews)) },
    {
      title: 'Sources',
      figures: [
        { label: 'Groups', value: count(sources.groups) },
        { label: 'Files', value: count(sources.files) },
        { label: 'Stored', value: bytes(sources.bytes) },
      ],
    },
    {
      title: 'Templates',
      figures: [
        { label: 'All', value: count(templates.total) },
        { label: 'Active', value: count(templates.active) },
      ],
    },
  ];
  return (
    <div className="grid counters">
      {cards.map((card) => (
        <section key={card.title} className="card">
          <h3>{card.title}</h3>
          <FigureList figures={card.figures} />
        </section>
      ))}
    </div>
  );
}

function counted(entries: { name: string; value: number }[]) {
  return entries.map(({ name, value }) => ({ label: name, value: count(value) }));
}
