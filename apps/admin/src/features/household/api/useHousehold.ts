import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type FamilySettings = components['schemas']['FamilySettingsDto'];
export type FamilySettingsChanges = components['schemas']['UpdateFamilySettingsDto'];

/** The same key as the budgets' read of the settings, so that both show a change at once. */
const settingsKey = ['family_settings'] as const;

export const useHouseholdSettings = () => useQuery({ queryKey: settingsKey, queryFn: () => unwrap(api.GET('/api/v1/family_settings')) });

/** Saves the changed settings; the header (household name) and the budgets (currency, month start) read theirs again. */
export function useUpdateHousehold() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FamilySettingsChanges) => unwrap(api.PATCH('/api/v1/family_settings', { body })),
    onSuccess: (saved) => {
      client.setQueryData(settingsKey, saved);
      return Promise.all([client.invalidateQueries({ queryKey: ['me'] }), client.invalidateQueries({ queryKey: ['budgets'] })]);
    },
  });
}
