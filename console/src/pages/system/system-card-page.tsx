// The system card: what the service does and does not do, how it validates, where this tenant's
// engine flags a claim, its known limits and how data is kept. The API serves it with the audit trail.
import type { Me, SystemCard } from '@groundcheck/sdk';
import { useQuery } from '@tanstack/react-query';
import { format, parseISO } from 'date-fns';
import { useOutletContext } from 'react-router';
import { api } from '../../api/client';
import { Page } from '../../ui/page';
import { ProblemMessage } from '../../ui/problem-message';
import { FactList, Sentences } from './fact-list';

const verifierNames: Record<SystemCard['validation_method']['verifier']['name'], string> = {
  none: 'None: the checks alone',
  onnx: 'Local entailment model (onnx)',
  openai: 'Judge model at an OpenAI-compatible endpoint (openai)',
};

const calibrationText: Record<SystemCard['operating_point']['calibration'], string> = {
  off: 'Off',
  suggest: 'An operating point fitted to your reviews is suggested to administrators, who may apply it',
  apply: 'An operating point fitted to your reviews is applied by the service when it beats the one in force',
};

export function SystemCardPage() {
  const me = useOutletContext<Me>();
  const available = me.customer.features.audit_trail;
  const card = useQuery({ queryKey: ['system-card'], queryFn: async () => await api.systemCard(), enabled: available });
  return (
    <Page title="System card">
      {!available ? (
        <p className="notice">The system card comes with the audit trail, which {me.customer.name} does not have.</p>
      ) : card.isError ? (
        <ProblemMessage error={card.error} />
      ) : card.data ? (
        <SystemCardSections card={card.data} />
      ) : (
        <p aria-busy="true">Loading…</p>
      )}
    </Page>
  );
}

function SystemCardSections({ card }: { card: SystemCard }) {
  const yesNo = (value: boolean) => (value ? 'Yes' : 'No');
  const days = (value: number) => `${value} days`;
  return (
    <div className="stack system-card">
      <section className="card">
        <h2>Service</h2>
        <FactList
          facts={[
            { term: 'Name', description: card.service.name },
            { term: 'Version', description: card.service.version },
            { term: 'Region', description: card.region },
            { term: 'Purpose', description: card.purpose },
            { term: 'Card written', description: format(parseISO(card.generated_at), 'd MMM yyyy, HH:mm') },
          ]}
        />
      </section>
      <section className="card">
        <h2>What it does</h2>
        <Sentences items={card.capabilities} />
        <h3>What it does not do</h3>
        <Sentences items={card.not_done} />
      </section>
      <section className="card">
        <h2>Validation method</h2>
        <FactList
          facts={[
            { term: 'Engine', description: card.validation_method.name },
            { term: 'Engine version', description: card.validation_method.version },
            { term: 'How it checks', description: card.validation_method.description },
            { term: 'Verifier', description: verifierNames[card.validation_method.verifier.name] },
            { term: 'What the verifier does', description: card.validation_method.verifier.description },
          ]}
        />
      </section>
      <section className="card">
        <h2>Operating point</h2>
        <FactList
          facts={[
            { term: 'Supported score', description: String(card.operating_point.supported_score) },
            { term: 'Fitted to this tenant', description: yesNo(card.operating_point.fitted_to_tenant) },
            ...(card.operating_point.applied_at
              ? [{ term: 'Applied', description: format(parseISO(card.operating_point.applied_at), 'd MMM yyyy, HH:mm') }]
              : []),
            { term: 'Calibration', description: calibrationText[card.operating_point.calibration] },
          ]}
        />
      </section>
      <section className="card">
        <h2>Known limitations</h2>
        <Sentences items={card.known_limitations} />
      </section>
      <section className="card">
        <h2>Data handling</h2>
        <FactList
          facts={[
            { term: 'History kept for', description: days(card.data_handling.history_retention_days) },
            { term: 'Audit trail kept for', description: days(card.data_handling.audit_retention_days) },
            { term: 'The audit trail records', description: <Sentences items={card.data_handling.audit_trail_records} /> },
            { term: 'It never records', description: <Sentences items={card.data_handling.audit_trail_never_records} /> },
          ]}
        />
      </section>
      <section className="card">
        <h2>Schema versions</h2>
        <FactList
          facts={[
            { term: 'API', description: card.schema_versions.api },
            { term: 'Audit event', description: card.schema_versions.audit_event },
            { term: 'Audit export (enterprise_v1)', description: card.schema_versions.audit_export },
            { term: 'Webhook', description: card.schema_versions.webhook },
            { term: 'System card', description: card.schema_version },
          ]}
        />
      </section>
    </div>
  );
}
