import { Page } from '../../ui/page';

export function AuditPage() {
  return <Page title="Audit">PLACEHOLDER</Page>;
}
