import { Page } from '../../ui/page';

export function TemplatesPage() {
  return <Page title="Templates">PLACEHOLDER</Page>;
}
