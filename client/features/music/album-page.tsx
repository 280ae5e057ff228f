import { NotFound } from '../../ui/not-found';

export function AlbumPage() {
  return (
    <NotFound title="Album not found" links={[{ to: '/music', label: 'Back to Your music' }]}>
      This album isn't in your music. Albums appear here once you donate to their fundraiser, or when they belong to one
      of your own fundraisers.
    </NotFound>
  );
}
