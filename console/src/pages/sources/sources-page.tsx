import { Page } from '../../ui/page';

export function SourcesPage() {
  return <Page title="Sources">PLACEHOLDER</Page>;
}
