// The account (admin): its users, billing, the export of its data, and closing it. A person the
// API refuses sees its refusal and nothing else.
import { type Me, PermissionError, type Role } from '@groundcheck/sdk';
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { Page } from '../../ui/page';
import { ProblemMessage } from '../../ui/problem-message';
import { AccountDeletionSection } from './account-deletion-section';
import { AccountExportSection } from './account-export-section';
import { BillingSection } from './billing-section';
import { useUsers } from './use-users';
import { UsersSection } from './users-section';

export function AccountPage() {
  const me = useOutletContext<Me>();
  const [roleFilter, setRoleFilter] = useState<Role | ''>('');
  const users = useUsers(roleFilter);
  if (users.error instanceof PermissionError) {
    return (
      <Page title="Account">
        <ProblemMessage error={users.error} />
      </Page>
    );
  }
  return (
    <Page title="Account">
      <p className="muted">
        {me.customer.name} (customer id <code>{me.customer.customer_id}</code>)
      </p>
      <UsersSection me={me} users={users} roleFilter={roleFilter} onRoleFilter={setRoleFilter} />
      <div className="grid account-cards">
        <BillingSection />
        <AccountExportSection me={me} />
      </div>
      <AccountDeletionSection me={me} />
    </Page>
  );
}
