// Creating a source group or changing one: its name, description, the data-access roles that may
// use it, and the API endpoints queried at validation time.
import type { SourceGroup } from '@groundcheck/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { api } from '../../api/client';
import { ModalDialog } from '../../ui/modal-dialog';
import { NameAndDescription } from '../../ui/name-and-description';
import { ProblemMessage } from '../../ui/problem-message';
import { EndpointFields } from './endpoint-fields';
import { type GroupFormValues, groupFormValues, groupSaveRequest, noForwarding } from './group-form-values';

/** The contract's limit on a group's endpoints. */
const maxEndpoints = 10;

export function GroupFormDialog({
  group,
  onClose,
  onSaved,
}: {
  group: SourceGroup | null;
  onClose: () => void;
  onSaved: (saved: SourceGroup) => void;
}) {
  const queryClient = useQueryClient();
  const rolesHelpId = useId();
  const form = useForm<GroupFormValues>({ defaultValues: groupFormValues(group) });
  const endpoints = useFieldArray({ control: form.control, name: 'endpoints' });
  const save = useMutation({
    mutationFn: async (values: GroupFormValues) => await api.sources.saveGroup(groupSaveRequest(group, values)),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: ['sources'] });
      onSaved(saved);
    },
  });
  return (
    <ModalDialog title={group ? `Edit ${group.name}` : 'New source group'} onClose={onClose}>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate className="stack">
        <NameAndDescription form={form} />
        <label>
          Data-access roles allowed to use it
          <input aria-describedby={rolesHelpId} autoComplete="off" {...form.register('allowedRoles')} />
          <span id={rolesHelpId} className="muted field-help">
            Separate roles with commas, for example “hr, managers”. Leave empty to let everyone in the account use the group.
          </span>
        </label>
        <fieldset className="stack">
          <legend>Endpoints</legend>
          <p className="muted">APIs asked for passages at validation time, with the question as input.</p>
          {endpoints.fields.map((field, index) => (
            <EndpointFields key={field.id} form={form} index={index} onRemove={() => endpoints.remove(index)} />
          ))}
          {endpoints.fields.length < maxEndpoints && (
            <button
              type="button"
              className="button secondary"
              onClick={() => endpoints.append({ name: '', url: '', authz_forwarding: { ...noForwarding } })}
            >
              Add an endpoint
            </button>
          )}
        </fieldset>
        {save.isError && <ProblemMessage error={save.error} />}
        <div className="row">
          <button type="submit" className="button" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : group ? 'Save changes' : 'Create group'}
          </button>
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
