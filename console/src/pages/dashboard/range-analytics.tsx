// The analytics of one range of days: totals, the charts, how long reviews took, the engine against
// the reviewers, and for administrators the operating point fitted to the tenant's reviews.
import { useQuery } from '@tanstack/react-query';
import { ProblemMessage } from '../../ui/problem-message';
import { CalibrationSummary } from './calibration-summary';
import { CountBarChart } from './count-bar-chart';
import { DailyOutcomesChart } from './daily-outcomes-chart';
import { analyticsQuery } from './dashboard-queries';
import { type DayRange, dayLabel } from './day-range';
import { EngineAgreement } from './engine-agreement';
import { FigureList } from './figure-list';
import { count, duration, share } from './figures';
import { categoryLabels, labelled, reviewStateLabels } from './labels';

export function RangeAnalytics({ range, showCalibration }: { range: DayRange; showCalibration: boolean }) {
  const analytics = useQuery(analyticsQuery(range));
  if (analytics.isError) return <ProblemMessage error={analytics.error} />;
  if (!analytics.data) return <p aria-busy="true">Loading the analytics…</p>;
  const { totals, time_to_decision: reviewTimes } = analytics.data;
  return (
    <div className="stack analytics">
      <p className="muted">
        From <time dateTime={analytics.data.date_from}>{dayLabel(analytics.data.date_from)}</time> to{' '}
        <time dateTime={analytics.data.date_to}>{dayLabel(analytics.data.date_to)}</time>
      </p>
      <FigureList
        figures={[
          { label: 'Validations', value: count(totals.validations) },
          { label: 'With issues', value: count(totals.with_issues) },
          { label: 'Issue rate', value: share(totals.issue_rate) },
          { label: 'Issues found', value: count(totals.issues) },
          { label: 'Source conflicts', value: count(totals.source_conflicts) },
          { label: 'Share with a source conflict', value: share(totals.source_conflict_rate) },
        ]}
      />
      <div className="charts">
        <DailyOutcomesChart daily={analytics.data.daily} />
        <CountBarChart
          title="Findings by category"
          rowHeading="Category"
          label="Findings"
          counts={labelled(categoryLabels, analytics.data.by_category)}
        />
        <CountBarChart
          title="Validations by review state"
          rowHeading="Review state"
          label="Validations"
          counts={labelled(reviewStateLabels, analytics.data.reviews)}
        />
      </div>
      <section className="card">
        <h3>Time to a review decision</h3>
        <FigureList
          figures={[
            { label: 'Decisions', value: count(reviewTimes.decisions) },
            { label: 'Mean', value: duration(reviewTimes.mean_seconds) },
            { label: 'Longest', value: duration(reviewTimes.max_seconds) },
          ]}
        />
      </section>
      <section className="card">
        <h3>Engine against reviewers</h3>
        <EngineAgreement agreement={analytics.data.engine_agreement} />
      </section>
      {showCalibration && (
        <section className="card">
          <h3>Operating point fitted to your reviews</h3>
          <CalibrationSummary calibration={analytics.data.calibration} />
        </section>
      )}
    </div>
  );
}
