import { Page } from '../../ui/page';

export function AccountPage() {
  return <Page title="Account">PLACEHOLDER</Page>;
}
