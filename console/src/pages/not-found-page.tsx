import { Link } from 'react-router';
import { Page } from '../ui/page';

export function NotFoundPage() {
  return (
    <Page title="Page not found">
      <p>
        There is no such page in the console. <Link to="/dashboard">Go to the dashboard</Link>.
      </p>
    </Page>
  );
}
