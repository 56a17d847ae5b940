// The suggested operating point, applied by an admin: what `apply` mode does, through the API, with
// its audit event. A confirmation first, since every new validation of the tenant is flagged by it.
import type { Calibration } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { ModalDialog } from '../../ui/modal-dialog';
import { ProblemMessage } from '../../ui/problem-message';
import { score } from './figures';

export function ApplyOperatingPoint({ calibration }: { calibration: Calibration }) {
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const apply = useMutation({
    mutationFn: async () => await api.engine.applyOperatingPoint(),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: ['analytics'] });
    },
  });
  // Once applied, the refreshed analytics suggest nothing (the point is in force): the notice stays all the same.
  if (apply.data)
    return (
      <output className="notice">
        New validations now use the supported score {score(apply.data.supported_score)}
        {apply.data.fit ? ` (it was ${score(apply.data.fit.previous_supported_score)})` : ''}. The change is in the audit trail.
      </output>
    );
  const { suggested } = calibration;
  if (!suggested) return null;
  return (
    <div className="stack">
      <div>
        <button type="button" className="button" onClick={() => setConfirming(true)}>
          Apply the suggested point…
        </button>
      </div>
      {confirming && (
        <ModalDialog title="Apply the suggested operating point?" onClose={() => setConfirming(false)}>
          <p>
            New validations will flag a claim below the supported score {score(suggested.supported_score)} instead of{' '}
            {score(calibration.current_supported_score)}. The server fits the point again on all decided reviews first and applies it only
            if it still does better than the current one; the change is recorded in the audit trail.
          </p>
          {apply.isError && <ProblemMessage error={apply.error} />}
          <div className="row">
            <button type="button" className="button" onClick={() => apply.mutate()} disabled={apply.isPending}>
              {apply.isPending ? 'Applying…' : 'Apply'}
            </button>
            <button type="button" className="button secondary" onClick={() => setConfirming(false)} data-initial-focus>
              Cancel
            </button>
          </div>
        </ModalDialog>
      )}
    </div>
  );
}
