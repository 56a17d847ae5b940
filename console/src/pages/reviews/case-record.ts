// One case's record, read through the history by its id (HistoryQuery `validation_id`): null when
// it does not exist, has expired or is not the caller's to see.
import type { ValidationRecord } from '@groundcheck/sdk';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const caseKey = (validationId: string) => ['case', validationId] as const;

export function useCaseRecord(validationId: string) {
  return useQuery({
    queryKey: caseKey(validationId),
    queryFn: async (): Promise<ValidationRecord | null> =>
      (await api.history.list({ validation_id: validationId, limit: 1 })).data[0] ?? null,
  });
}
