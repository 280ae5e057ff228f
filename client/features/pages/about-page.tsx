import { Link } from 'react-router';
import { usePageTitle, useSite } from '../../lib/site';
import { siteStats } from './site-stats';
import './pages.css';

export function AboutPage() {
  usePageTitle('About');
  const { siteName } = useSite();
  return (
    <article className="page narrow stack">
      <h1>About {siteName}</h1>
      <p className="lead">{siteName} helps artists turn their music into donations for the causes they care about.</p>

      <section className="stack" aria-labelledby="about-mission-heading">
        <h2 id="about-mission-heading">Our mission</h2>
        <p>
          We are a volunteer-run, US 501(c)(3) non-profit organization, launched in 2015. Artists release albums and
          other original audio (music, spoken word, comedy, meditations) as fundraisers for a registered charity of
          their choosing. Fans donate to get the music, and the money goes to the charity.
        </p>
        <p>
          Every donation goes to the charity minus the card processing fees charged by our payment provider, roughly
          2.5%. {siteName} takes no percentage of any donation. We keep the lights on with optional tips that fans add
          when they donate, and with gifts to the platform itself.
        </p>
      </section>

      <section className="stack" aria-labelledby="about-stats-heading">
        <h2 id="about-stats-heading">{siteName} so far</h2>
        <ul className="pages-stats" role="list">
          {siteStats.map((stat) => (
            <li key={stat.label}>
              <strong>{stat.value}</strong>
              <span>{stat.label}</span>
            </li>
          ))}
        </ul>
      </section>

      <section className="stack" aria-labelledby="about-involved-heading">
        <h2 id="about-involved-heading">Get involved</h2>
        <p>
          Have an album, an EP or a single you want to put to good use? Start a fundraiser in a few minutes. Questions,
          ideas or a charity you would like to see here? We would love to hear from you.
        </p>
        <p className="actions">
          <Link className="button button-primary" to="/fundraisers/new">
            Start a fundraiser
          </Link>
          <Link className="button button-secondary" to="/contact">
            Contact us
          </Link>
        </p>
      </section>
    </article>
  );
}
