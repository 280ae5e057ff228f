import { NotFound } from '../../ui/not-found';

/** A missing fundraiser, or a draft this visitor may not see (the server answers 404 for both). */
export function FundraiserNotFound({ forManaging = false }: { forManaging?: boolean }) {
  const browse = { to: '/browse', label: 'Browse fundraisers' };
  return (
    <NotFound
      title="Fundraiser not found"
      links={forManaging ? [browse, { to: '/fundraisers/user', label: 'Your fundraisers' }] : [browse]}
    >
      {forManaging
        ? "We couldn't find this fundraiser. It may have been deleted, or it may belong to another account."
        : "We couldn't find this fundraiser. The link may be mistyped, or the fundraiser may have been removed."}
    </NotFound>
  );
}
