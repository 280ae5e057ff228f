import { Link } from 'react-router';
import { usePageTitle } from '../../lib/site';

export function CreateArtistPage() {
  usePageTitle('Create a new artist');
  return (
    <div className="page narrow stack">
      <h1>Create a new artist</h1>
      <p className="lead">
        An artist profile is how fans find you: it has a name, a description, a website and a profile image. Every
        fundraiser you start belongs to one of your artists.
      </p>
      <p>
        <Link to="/artists/user">Back to your artists</Link>
      </p>
    </div>
  );
}
