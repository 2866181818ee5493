import { keepPreviousData, QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportType } from '@hearth/contracts';
import { api, ApiError, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type ImportDetail = components['schemas']['ImportDetailDto'];
export type ImportRow = components['schemas']['ImportRowDto'];
export type ImportConfiguration = Omit<components['schemas']['UpdateImportDto'], 'mappings' | 'account_id' | 'skip_rows'>;
/** A new import's content: a file, or text the user pasted (raw_file_content). */
export type CreateImport = ImportConfiguration & { type: ImportType; account_id?: string } & ({ file: File; sheet?: string } | { raw_file_content: string });
export type Account = components['schemas']['AccountDto'];

export const importKeys = {
  all: ['imports'] as const,
  list: (page: number) => [...importKeys.all, 'list', page] as const,
  detail: (id: string) => [...importKeys.all, 'detail', id] as const,
  rows: (id: string, page: number, onlyErrors: boolean) => [...importKeys.all, 'rows', id, onlyErrors, page] as const,
};

/** The family's accounts by name, to put an import's rows into one of them. */
export const useAccounts = () =>
  useQuery({
    queryKey: ['accounts'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/accounts', { params: { query: { per_page: '100' } } }))).accounts,
  });

/** Work in progress on the queue: poll until it settles. */
export const isBusy = (status: string | undefined) => status === 'importing' || status === 'reverting';

export const useImports = (page: number) =>
  useQuery({
    queryKey: importKeys.list(page),
    queryFn: () => unwrap(api.GET('/api/v1/imports', { params: { query: { page, per_page: 20 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((i) => isBusy(i.status)) ? 1500 : false),
  });

export const importQuery = (id: string) =>
  queryOptions({
    queryKey: importKeys.detail(id),
    queryFn: async () => (await unwrap(api.GET('/api/v1/imports/{id}', { params: { path: { id } } }))).data,
    refetchInterval: (q) => (isBusy(q.state.data?.status) ? 1000 : false),
  });

export const useImport = (id: string) => useQuery(importQuery(id));

/** A page of the import's rows; `onlyErrors`: of its rows with errors alone (errors=only), paged among themselves. */
export const useImportRows = (id: string, page: number, version: string | undefined, onlyErrors: boolean) =>
  useQuery({
    queryKey: [...importKeys.rows(id, page, onlyErrors), version],
    queryFn: () =>
      unwrap(api.GET('/api/v1/imports/{id}/rows', { params: { path: { id }, query: { page, per_page: 25, ...(onlyErrors ? { errors: 'only' as const } : {}) } } })),
    placeholderData: keepPreviousData,
    enabled: version !== undefined,
  });

/** Uploads a file as multipart/form-data with its configuration; pasted text goes as JSON, in raw_file_content. */
export function useCreateImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateImport) => {
      if (!('file' in input)) return unwrap(api.POST('/api/v1/imports', { body: input }));
      const { file, ...fields } = input;
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) if (value) form.append(key, String(value));
      form.append('file', file, file.name);
      const body = fields as components['schemas']['CreateImportDto']; // typed view; the FormData is what is sent
      return unwrap(api.POST('/api/v1/imports', { body, bodySerializer: () => form }));
    },
    onSuccess: ({ data }) => {
      client.setQueryData(importKeys.detail(data.id), data);
      return client.invalidateQueries({ queryKey: [...importKeys.all, 'list'] });
    },
  });
}

function useImportChange<T>(fn: (args: T) => Promise<{ data: ImportDetail }>, { onError }: { onError?: (error: Error, client: QueryClient) => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: ({ data }) => {
      client.setQueryData(importKeys.detail(data.id), data);
      void client.invalidateQueries({ queryKey: [...importKeys.all, 'list'] });
    },
    onError: onError && ((error) => onError(error, client)),
  });
}

export const useUpdateImport = (id: string) =>
  useImportChange((body: ImportConfiguration & { account_id?: string | null }) => unwrap(api.PATCH('/api/v1/imports/{id}', { params: { path: { id } }, body })));

/** Replaces the import's skip_rows: the rows are read again without them. */
export const useSkipRows = (id: string) =>
  useImportChange((skipRows: number[]) => unwrap(api.PATCH('/api/v1/imports/{id}', { params: { path: { id } }, body: { skip_rows: skipRows } })));

/**
 * Nothing is published yet, and no publish or revert is under way: rows can still be skipped or included, and the
 * import discarded.
 */
export const isUnpublished = (detail: ImportDetail) => (detail.status === 'pending' || detail.status === 'failed') && !detail.status_detail.revertable;

/** The API's answer to a publish of an import that is publishing or published already (another click, another tab). */
export const isPublishUnderWay = (error: unknown) => error instanceof ApiError && (error.code === 'import_publishing' || error.code === 'import_published');

export const usePublishImport = (id: string) =>
  useImportChange(() => unwrap(api.POST('/api/v1/imports/{id}/publish', { params: { path: { id } } })), {
    // Publishing or published already: the import is read again to show how it goes.
    onError: (error, client) => isPublishUnderWay(error) && void client.invalidateQueries({ queryKey: importKeys.detail(id) }),
  });

/** Deletes an import that has nothing published (DELETE /imports/{id}); the list is read again. */
export function useDiscardImport(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/imports/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      client.removeQueries({ queryKey: importKeys.detail(id) });
      return client.invalidateQueries({ queryKey: [...importKeys.all, 'list'] });
    },
  });
}

export const useRevertImport = (id: string) =>
  useImportChange(() => unwrap(api.POST('/api/v1/imports/{id}/revert', { params: { path: { id } } })));
