import { Page } from '../../ui/page';

export function CheckPage() {
  return <Page title="Check an answer">PLACEHOLDER</Page>;
}
