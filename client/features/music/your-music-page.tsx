import { Link, Navigate, useParams } from 'react-router';
import { usePageTitle } from '../../lib/site';
import { TabLinks } from '../../ui/tab-links';

type MusicTab = 'past-donations' | 'user';

const tabs: { tab: MusicTab; label: string }[] = [
  { tab: 'past-donations', label: 'Past donations' },
  { tab: 'user', label: 'Your fundraisers' },
];

function isMusicTab(value: string | undefined): value is MusicTab {
  return tabs.some((item) => item.tab === value);
}

export function YourMusicPage() {
  usePageTitle('Your music');
  const { tab } = useParams();
  if (!isMusicTab(tab)) return <Navigate to="/music/albums/past-donations" replace />;

  return (
    <div className="page stack">
      <h1>Your music</h1>
      <TabLinks
        label="Your music"
        tabs={tabs.map((item) => ({ to: `/music/albums/${item.tab}`, label: item.label }))}
        current={`/music/albums/${tab}`}
      />
      {tab === 'past-donations' ? (
        <section className="section stack" aria-labelledby="music-list-heading">
          <h2 id="music-list-heading" className="visually-hidden">
            Past donations
          </h2>
          <div className="empty-state">
            <p>You haven't donated to any fundraisers yet. Albums you get by donating appear here.</p>
            <Link className="button button-primary" to="/browse">
              Browse music
            </Link>
          </div>
        </section>
      ) : (
        <section className="section stack" aria-labelledby="music-list-heading">
          <h2 id="music-list-heading" className="visually-hidden">
            Your fundraisers
          </h2>
          <div className="empty-state">
            <p>You don't have any fundraisers yet.</p>
            <Link className="button button-primary" to="/fundraisers/new">
              Start a fundraiser
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
