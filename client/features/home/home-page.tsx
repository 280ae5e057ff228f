import { Link, useNavigate } from 'react-router';
import { FUNDRAISER_SEARCH_FIELDS, FundraiserSearchFields } from '../../ui/fundraiser-search-fields';
import { SearchForm } from '../../ui/search-form';
import { usePageTitle, useSite } from '../../lib/site';
import { FeaturedCharities } from './featured-charities';
import { FeaturedFundraisers } from './featured-fundraisers';
import './home.css';

export function HomePage() {
  usePageTitle('Music for a cause');
  const { siteName } = useSite();
  return (
    <div className="home">
      <section className="hero home-hero" aria-labelledby="home-heading">
        <div className="page center stack">
          <h1 id="home-heading">Music for a cause</h1>
          <p className="lead">
            Artists share their music to raise money for the charities they care about. Donate to a fundraiser, and the
            music is yours to stream and download.
          </p>
          <p className="actions home-hero-actions">
            <Link className="button button-primary" to="/browse">
              Browse music
            </Link>
            <Link className="button button-secondary" to="/fundraisers/new">
              Start a fundraiser
            </Link>
          </p>
        </div>
      </section>

      <div className="page stack">
        <HomeSearch />

        <FeaturedFundraisers />

        <section className="section home-how card" aria-labelledby="home-how-heading">
          <h2 id="home-how-heading">How it works</h2>
          <ol className="home-steps numbered-steps" role="list">
            <li>
              <strong>Artists start a fundraiser</strong>
              <span>Upload an album and choose a registered US charity to support.</span>
            </li>
            <li>
              <strong>Fans donate</strong>
              <span>Listen to a preview, then donate at least the artist's minimum.</span>
            </li>
            <li>
              <strong>Everyone wins</strong>
              <span>The charity receives the donation, and the fan gets the music to keep.</span>
            </li>
          </ol>
          <p>
            <Link to="/howitworks">Learn more about how {siteName} works</Link>
          </p>
        </section>

        <FeaturedCharities />

        <section className="section home-cta center stack" aria-labelledby="home-cta-heading">
          <h2 id="home-cta-heading">Raise money with your music</h2>
          <p className="lead">
            Release an album, an EP or any original audio as a fundraiser for the cause you care about. It's free, and
            we take no percentage.
          </p>
          <p className="actions home-cta-actions">
            <Link className="button button-primary" to="/fundraisers/new">
              Start a fundraiser
            </Link>
            <Link className="button button-secondary" to="/for-artists">
              What artists get
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}

/** Desktop search: sends its filters to the fundraiser tab of browse as query parameters. */
function HomeSearch() {
  const navigate = useNavigate();

  const search = (params: URLSearchParams) => navigate(params.size ? `/browse/projects?${params}` : '/browse/projects');

  return (
    <section className="desktop-only" aria-labelledby="home-search-heading">
      <div className="section card home-search">
        <h2 id="home-search-heading">Find a fundraiser</h2>
        <SearchForm labelledBy="home-search-heading" fields={FUNDRAISER_SEARCH_FIELDS} onSearch={search}>
          <FundraiserSearchFields />
        </SearchForm>
      </div>
    </section>
  );
}
