import { NotFound } from '../../ui/not-found';

/** A missing artist, or a draft this visitor may not see (the server answers 404 for both). */
export function ArtistNotFound({ forEditing = false }: { forEditing?: boolean }) {
  const browse = { to: '/browse/artists', label: 'Browse artists' };
  return (
    <NotFound
      title="Artist not found"
      links={forEditing ? [browse, { to: '/artists/user', label: 'Your artists' }] : [browse]}
    >
      {forEditing
        ? "We couldn't find this artist. It may have been deleted, or it may belong to another account."
        : "We couldn't find this artist. The link may be mistyped, or the artist may have been removed."}
    </NotFound>
  );
}
