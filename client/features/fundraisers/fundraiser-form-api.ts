import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { type CreateArtistInput } from '../../../shared/schemas/artists';
import type { z } from 'zod';
import {
  type FundraiserMusicInput,
  type saveFundraiserSchema,
  type updateFundraiserSchema,
} from '../../../shared/schemas/fundraisers';
import { fundraiserRefSchema } from '../../../shared/answers/fundraisers';
import { artistKeys } from '../../api/artists';
import { fundraiserKeys } from '../../api/fundraisers';
import { apiRequest } from '../../api/http';
import { UnexpectedDataError } from '../../api/errors';
import { sendWithProgress, toApiError, UploadRequestError } from '../../api/xhr-upload';

// The calls of the creation wizard and the edit page (spec part 2 section 7), each parsed by its
// shared schema.

/** POST /api/artists/new: the wizard's inline artist form. */
export function useCreateArtist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateArtistInput) => apiRequest('/api/artists/new', 'artist', { method: 'POST', json: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: artistKeys.all }),
  });
}

/** POST /api/fundraisers/save: creates the wizard's draft (no id) or updates it. */
export function useSaveFundraiser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof saveFundraiserSchema>) =>
      apiRequest('/api/fundraisers/save', 'fundraiserRef', { method: 'POST', json: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fundraiserKeys.all }),
  });
}

/** PATCH /api/fundraisers/music: the wizard's last step. */
export function useSubmitMusic() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FundraiserMusicInput) =>
      apiRequest('/api/fundraisers/music', 'fundraiserRef', { method: 'PATCH', json: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fundraiserKeys.all }),
  });
}

/** PATCH /api/fundraisers/{id}/update: the streaming edit form, as JSON. */
export function useUpdateFundraiser(id: number) {
  return useMutation({
    mutationFn: (input: z.input<typeof updateFundraiserSchema>) =>
      apiRequest(`/api/fundraisers/${id}/update`, 'fundraiserRef', { method: 'PATCH', json: input }),
  });
}

/**
 * PATCH /api/fundraisers/{id}/updatev1: the legacy form as multipart (it may carry an album zip
 * of up to 1000 MB), sent with XMLHttpRequest so the overlay can show how much has gone. `cancel`
 * stops the request (the mutation then fails with UploadCancelled), and so does leaving the page:
 * a gigabyte upload must not carry on unseen.
 */
export function useUpdateFundraiserV1(id: number, onProgress: (percent: number) => void) {
  const abortRef = useRef<(() => void) | null>(null);
  useEffect(() => () => abortRef.current?.(), []);
  const mutation = useMutation({
    mutationFn: async (body: FormData) => {
      const request = sendWithProgress(`/api/fundraisers/${id}/updatev1`, body, onProgress, 'PATCH');
      abortRef.current = request.abort;
      try {
        const answer = await request.done;
        const parsed = fundraiserRefSchema.safeParse(answer);
        if (!parsed.success) throw new UnexpectedDataError();
        return parsed.data;
      } catch (error) {
        throw error instanceof UploadRequestError ? toApiError(error) : error;
      } finally {
        abortRef.current = null;
      }
    },
  });
  return { ...mutation, cancel: () => abortRef.current?.() };
}
