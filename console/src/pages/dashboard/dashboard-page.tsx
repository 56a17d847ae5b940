import { Page } from '../../ui/page';

export function DashboardPage() {
  return <Page title="Dashboard">PLACEHOLDER</Page>;
}
