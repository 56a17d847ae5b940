// The payment provider's billing portal: a short-lived link asked for on click and opened at once,
// returning here afterwards. A deployment without a provider says so in a sentence, not as an error.
import { GroundcheckError } from '@groundcheck/sdk';
import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { api } from '../../api/client';
import { ProblemMessage } from '../../ui/problem-message';

export function BillingSection() {
  const headingId = useId();
  const portal = useMutation({
    mutationFn: () => api.saas.billingPortal({ return_url: window.location.href }),
    onSuccess: (session) => window.location.assign(session.url),
  });
  const notConfigured = portal.error instanceof GroundcheckError && portal.error.code === 'billing_not_configured';
  return (
    <section aria-labelledby={headingId} className="card stack">
      <h2 id={headingId}>Billing</h2>
      <p>Invoices, the payment method and the plan are managed in the payment provider's portal.</p>
      <div>
        <button type="button" className="button secondary" onClick={() => portal.mutate()} disabled={portal.isPending || portal.isSuccess}>
          {portal.isPending || portal.isSuccess ? 'Opening the billing portal…' : 'Open the billing portal'}
        </button>
      </div>
      {notConfigured ? (
        <output className="notice">Billing is not configured for this deployment.</output>
      ) : (
        portal.isError && <ProblemMessage error={portal.error} />
      )}
    </section>
  );
}
