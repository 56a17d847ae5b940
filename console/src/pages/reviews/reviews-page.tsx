import { Page } from '../../ui/page';

export function ReviewsPage() {
  return <Page title="Reviews">PLACEHOLDER</Page>;
}
