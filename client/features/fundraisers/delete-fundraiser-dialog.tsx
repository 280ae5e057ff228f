import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Fundraiser } from '../../../shared/answers/fundraisers';
import { fundraiserKeys } from '../../api/fundraisers';
import { apiRequest } from '../../api/http';
import { DeleteDialog } from '../../ui/dialog';
import { fundraiserTitle } from '../../../shared/public-pages';

function useDeleteFundraiser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest(`/api/fundraisers/${id}`, 'ok', { method: 'DELETE' }),
    onSuccess: (_answer, id) => {
      // The user's list may be shown next from its cache (it is not mounted now, so invalidating
      // would not refetch it before then): take the fundraiser out of it at once.
      queryClient.setQueryData<Fundraiser[]>(fundraiserKeys.user(), (list) => list?.filter((item) => item.id !== id));
      // The page showing the fundraiser (its details, its donors, its reach) is about to move on:
      // those queries are marked stale, not fetched again into a 404; every list is refetched without it.
      const ofThePageLeft = (key: readonly unknown[]) =>
        key[1] === fundraiserKeys.details()[1] ||
        key[1] === fundraiserKeys.transactions(id, 0)[1] ||
        key[1] === fundraiserKeys.reach(id)[1];
      void queryClient.invalidateQueries({
        queryKey: fundraiserKeys.all,
        predicate: (query) => ofThePageLeft(query.queryKey),
        refetchType: 'none',
      });
      return queryClient.invalidateQueries({
        queryKey: fundraiserKeys.all,
        predicate: (query) => !ofThePageLeft(query.queryKey),
      });
    },
  });
}

type DeleteFundraiserDialogProps = {
  fundraiser: Fundraiser;
  open: boolean;
  onClose: () => void;
  onDeleted: () => void;
};

/** Asks before deleting (spec part 2 section 4, 'Delete') and explains a failure (section 8). */
export function DeleteFundraiserDialog({ fundraiser, open, onClose, onDeleted }: DeleteFundraiserDialogProps) {
  const remove = useDeleteFundraiser();
  function close() {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  }
  return (
    <DeleteDialog
      open={open}
      onClose={close}
      title="Delete this fundraiser?"
      error={remove.isError ? 'Something went wrong! Unable to delete this project.' : undefined}
      confirmLabel="Delete fundraiser"
      pending={remove.isPending}
      needsNetwork="delete this fundraiser"
      onConfirm={() =>
        remove.mutate(fundraiser.id, {
          onSuccess: () => {
            remove.reset();
            onClose();
            onDeleted();
          },
        })
      }
    >
      <p>
        <strong>{fundraiserTitle(fundraiser)}</strong> will be removed and will take no more donations. Donations
        already made are still delivered to the charity. This cannot be undone.
      </p>
    </DeleteDialog>
  );
}
