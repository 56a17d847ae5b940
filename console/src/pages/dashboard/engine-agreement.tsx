// The engine's verdict against the tenant's reviewers on the decided reviews of the range: the
// confusion table, the precision and recall of flags, and how each finding category fared.
import type { EngineAgreement as Agreement } from '@groundcheck/sdk';
import { FigureList } from './figure-list';
import { count, share } from './figures';
import { categoryLabels } from './labels';

export function EngineAgreement({ agreement }: { agreement: Agreement }) {
  const categories = Object.keys(categoryLabels) as (keyof typeof categoryLabels)[];
  return (
    <div className="stack agreement">
      <FigureList
        figures={[
          { label: 'Decided reviews counted', value: count(agreement.decisions) },
          { label: 'Precision of flags', value: share(agreement.precision) },
          { label: 'Recall of flags', value: share(agreement.recall) },
        ]}
      />
      <div className="table-wrap">
        <table>
          <caption>Verdicts on decided reviews</caption>
          <thead>
            <tr>
              <td />
              <th scope="col">Reviewers found it wrong</th>
              <th scope="col">Reviewers approved it</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Engine flagged</th>
              <td>{count(agreement.flagged_wrong)}</td>
              <td>{count(agreement.flagged_right)}</td>
            </tr>
            <tr>
              <th scope="row">Engine did not flag</th>
              <td>{count(agreement.unflagged_wrong)}</td>
              <td>{count(agreement.unflagged_right)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <div className="table-wrap">
        <table>
          <caption>Findings on decided reviews, by category</caption>
          <thead>
            <tr>
              <th scope="col">Category</th>
              <th scope="col">Confirmed of all</th>
              <th scope="col">Precision</th>
            </tr>
          </thead>
          <tbody>
            {categories.map((category) => {
              const figures = agreement.by_category[category];
              return (
                <tr key={category}>
                  <th scope="row">{categoryLabels[category]}</th>
                  <td>
                    {count(figures.confirmed)} of {count(figures.confirmed + figures.overturned)}
                  </td>
                  <td>{share(figures.precision)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="muted">A finding is confirmed when the reviewers found its validation wrong, and overturned otherwise.</p>
    </div>
  );
}
