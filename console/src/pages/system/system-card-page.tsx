import { Page } from '../../ui/page';

export function SystemCardPage() {
  return <Page title="System card">PLACEHOLDER</Page>;
}
