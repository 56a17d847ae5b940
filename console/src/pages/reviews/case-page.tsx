import { Page } from '../../ui/page';

export function CasePage() {
  return <Page title="Case">PLACEHOLDER</Page>;
}
