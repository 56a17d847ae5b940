// The group form's values, from a group and back to the save request.
import type { AuthzForwarding, RequestBody, SourceEndpoint, SourceGroup } from '@groundcheck/sdk';

export type EndpointValues = Omit<SourceEndpoint, 'authz_forwarding'> & { authz_forwarding: Required<AuthzForwarding> };

export interface GroupFormValues {
  name: string;
  description: string;
  /** Separated by commas. */
  allowedRoles: string;
  endpoints: EndpointValues[];
}

export const noForwarding: Required<AuthzForwarding> = {
  user_id: false,
  customer_id: false,
  data_access_roles: false,
  original_jwt: false,
};

export function groupFormValues(group: SourceGroup | null): GroupFormValues {
  return {
    name: group?.name ?? '',
    description: group?.description ?? '',
    allowedRoles: group?.allowed_roles.join(', ') ?? '',
    endpoints: (group?.endpoints ?? []).map((endpoint) => ({
      name: endpoint.name,
      url: endpoint.url,
      authz_forwarding: { ...noForwarding, ...endpoint.authz_forwarding },
    })),
  };
}

/** An update sends every field, so that the group becomes what the form shows. */
export function groupSaveRequest(group: SourceGroup | null, values: GroupFormValues): RequestBody<'SourceGroupSaveRequest'> {
  return {
    ...(group && { group_id: group.group_id }),
    name: values.name.trim(),
    description: values.description.trim() || null,
    allowed_roles: values.allowedRoles
      .split(',')
      .map((role) => role.trim())
      .filter((role) => role !== ''),
    endpoints: values.endpoints.map((endpoint) => ({ ...endpoint, name: endpoint.name.trim(), url: endpoint.url.trim() })),
  };
}
