// The operating point fitted to the tenant's own decided reviews, when there is one: a suggestion
// that an administrator may apply here (S113).
import type { Calibration } from '@groundcheck/sdk';
import { ApplyOperatingPoint } from './apply-operating-point';
import { FigureList } from './figure-list';
import { count, score, share } from './figures';

const statusText: Record<Calibration['status'], string> = {
  off: 'Calibration is off for this tenant.',
  too_few_decisions: 'Too few decided reviews to fit an operating point yet.',
  no_better_point: 'No operating point did better than the current one on the newer decisions.',
  suggested: 'An operating point did better than the current one on the newer decisions.',
};

export function CalibrationSummary({ calibration }: { calibration: Calibration }) {
  const { suggested } = calibration;
  return (
    <div className="stack agreement">
      <p>{statusText[calibration.status]}</p>
      <FigureList
        figures={[
          { label: 'Current supported score', value: score(calibration.current_supported_score) },
          { label: 'Target precision', value: share(calibration.target_precision) },
          { label: 'Decisions with a recorded risk', value: count(calibration.decisions) },
          ...(suggested
            ? [
                { label: 'Suggested supported score', value: score(suggested.supported_score) },
                { label: 'Fitted on (older decisions)', value: count(suggested.fitted_on) },
                { label: 'Measured on (newer decisions)', value: count(suggested.measured_on) },
              ]
            : []),
        ]}
      />
      {suggested && (
        <div className="table-wrap">
          <table>
            <caption>Both points on the newer decisions</caption>
            <thead>
              <tr>
                <th scope="col">Operating point</th>
                <th scope="col">Precision</th>
                <th scope="col">Recall</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Current ({score(calibration.current_supported_score)})</th>
                <td>{share(suggested.current.precision)}</td>
                <td>{share(suggested.current.recall)}</td>
              </tr>
              <tr>
                <th scope="row">Suggested ({score(suggested.supported_score)})</th>
                <td>{share(suggested.fitted.precision)}</td>
                <td>{share(suggested.fitted.recall)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
      <ApplyOperatingPoint calibration={calibration} />
    </div>
  );
}
