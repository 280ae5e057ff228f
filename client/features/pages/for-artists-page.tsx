import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { forArtistsCard } from '../../../shared/routes';
import { currentPath } from '../../lib/return-to';
import { useUser } from '../../lib/session';
import { usePageTitle, useSite } from '../../lib/site';
import { siteStats } from './site-stats';
import './pages.css';
import './for-artists.css';

// The artist sign-up landing page (spec part 1 section 2 and part 2 section 1: one page at two
// addresses, /for-artists and /artists/join). What an artist gets, where the money goes, and the
// way in: an account for a guest, an artist or a fundraiser for someone signed in. Every fact here
// is the site's own (the about, how-it-works and contact pages, the terms).

/** A guest's account leads on to their artist (the verify step passes `from` along). */
const AFTER_SIGNUP = '/artists/new';

export function ForArtistsPage() {
  usePageTitle(forArtistsCard.title);
  const { siteName } = useSite();
  return (
    <article className="for-artists">
      <section className="hero for-artists-hero" aria-labelledby="for-artists-heading">
        <div className="page for-artists-hero-inner">
          <div className="stack">
            <p className="for-artists-eyebrow">For artists</p>
            <h1 id="for-artists-heading">Your music, for a cause you choose</h1>
            <p className="lead">
              Release your album as a fundraiser for a charity you care about. Fans donate to get your music, the
              charity gets the money, and {siteName} takes no percentage.
            </p>
            <JoinActions />
          </div>
          <aside className="card for-artists-stats" aria-labelledby="for-artists-stats-heading">
            <h2 id="for-artists-stats-heading">Since 2015</h2>
            <ul role="list">
              {siteStats.map((stat) => (
                <li key={stat.label}>
                  <strong>{stat.value}</strong> <span>{stat.label}</span>
                </li>
              ))}
            </ul>
          </aside>
        </div>
      </section>

      <div className="page stack">
        <section className="section stack" aria-labelledby="for-artists-get-heading">
          <h2 id="for-artists-get-heading">What you get</h2>
          <ul className="for-artists-benefits" role="list">
            {benefits.map((benefit) => (
              <li key={benefit.title} className="card for-artists-benefit">
                <span className="for-artists-icon" aria-hidden="true">
                  <svg viewBox="0 0 24 24" width="24" height="24" focusable="false">
                    <path fill="currentColor" d={benefit.icon} />
                  </svg>
                </span>
                <h3>{benefit.title}</h3>
                <p>{benefit.text(siteName)}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="section stack" aria-labelledby="for-artists-money-heading">
          <h2 id="for-artists-money-heading">Where the money goes</h2>
          <ol className="for-artists-flow numbered-steps" role="list">
            <FlowStep title="A fan donates">
              At least your minimum, and often more. They may add a tip for {siteName}; it is optional.
            </FlowStep>
            <FlowStep title="The card fee comes off">
              The card processor keeps its fee, about 2–3% of the payment. {siteName} takes no percentage.
            </FlowStep>
            <FlowStep title="Your charity gets the rest">
              We pay each charity what it was given and record every payment on the public ledger.
            </FlowStep>
          </ol>
          <p className="for-artists-prose">
            Tips go to {siteName}, a volunteer-run US 501(c)(3) non-profit, and pay for servers, storage and email. The
            part of a donation above your minimum is a tax-deductible gift, and the fan's receipt says so.
          </p>
          <p className="for-artists-prose">
            <Link to="/where-the-money-goes">See where the money goes</Link>: what each charity was given, and what we
            have paid it so far.
          </p>
        </section>

        <div className="for-artists-columns">
          <section className="section stack" aria-labelledby="for-artists-start-heading">
            <h2 id="for-artists-start-heading">Start in a few minutes</h2>
            <ol className="pages-steps">
              <li>
                <h3>Create your account</h3>
                <p>Sign up and verify your email address. It's free.</p>
              </li>
              <li>
                <h3>Create your artist</h3>
                <p>
                  A name, a short description, your website and a picture. A band and a solo project can each have one.
                </p>
              </li>
              <li>
                <h3>Choose a charity and a minimum</h3>
                <p>
                  Any registered US 501(c)(3) non-profit, looked up by its EIN. Set the minimum donation for your music
                  ($2 or more, in whole dollars) and a fundraising goal.
                </p>
              </li>
              <li>
                <h3>Add your music</h3>
                <p>
                  A square album cover, a short preview anyone can play (up to a minute works best), and up to 40 tracks
                  as WAV or MP3 files.
                </p>
              </li>
              <li>
                <h3>Publish and share</h3>
                <p>
                  Your fundraiser stays a draft until you publish it. Then send your link to your fans and watch the
                  goal bar fill.
                </p>
              </li>
            </ol>
            <p>
              <Link to="/howitworks">Read how {siteName} works, for artists and for fans</Link>
            </p>
          </section>

          <section className="section stack" aria-labelledby="for-artists-faq-heading">
            <h2 id="for-artists-faq-heading">Good to know</h2>
            <div className="pages-faq">
              <details>
                <summary>Do I keep the rights to my music?</summary>
                <div className="pages-faq-answer">
                  <p>
                    Yes. You keep ownership of your work, and give {siteName} the license it needs to stream it, play
                    its preview and deliver it to the people who donate. The <Link to="/terms">terms</Link> say it in
                    full.
                  </p>
                </div>
              </details>
              <details>
                <summary>What can I upload?</summary>
                <div className="pages-faq-answer">
                  <p>
                    Any original audio you own or have the rights to share: albums, EPs and singles, spoken word,
                    comedy, meditations. Please no covers of other people's songs or samples you may not use.
                  </p>
                </div>
              </details>
              <details>
                <summary>Can I change the charity later?</summary>
                <div className="pages-faq-answer">
                  <p>
                    While your fundraiser is a draft, yes. Once it is published the charity stays, because fans donate
                    with it in mind. <Link to="/contact">Contact us</Link> if it can no longer accept donations.
                  </p>
                </div>
              </details>
            </div>
          </section>
        </div>

        <section className="section card for-artists-cta center stack" aria-labelledby="for-artists-cta-heading">
          <h2 id="for-artists-cta-heading">Ready to raise money with your music?</h2>
          <JoinActions />
        </section>
      </div>
    </article>
  );
}

/** The way in: an account for a guest; for someone signed in, an artist or a fundraiser. */
function JoinActions() {
  const user = useUser();
  const location = useLocation();
  if (user) {
    return (
      <p className="actions for-artists-actions">
        <Link className="button button-primary" to="/fundraisers/new">
          Start a fundraiser
        </Link>
        <Link className="button button-secondary" to="/artists/new">
          Create an artist
        </Link>
      </p>
    );
  }
  return (
    <div className="stack for-artists-join">
      <p className="actions for-artists-actions">
        <Link className="button button-primary" to="/signup" state={{ from: AFTER_SIGNUP }}>
          Create an account
        </Link>
        <Link className="button button-secondary" to="/fundraisers/new">
          Start a fundraiser
        </Link>
      </p>
      <p className="muted">
        Starting a fundraiser signs you up on the way. Already have an account?{' '}
        <Link to="/login" state={{ from: currentPath(location) }}>
          Log in
        </Link>
      </p>
    </div>
  );
}

function FlowStep({ title, children }: { title: string; children: ReactNode }) {
  return (
    <li className="for-artists-flow-step">
      <h3>{title}</h3>
      <p>{children}</p>
    </li>
  );
}

/** Material Design icon paths (Apache 2.0), drawn in the brand colour. */
const icons = {
  heart:
    'M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54L12 21.35z',
  headphones: 'M12 3a9 9 0 0 0-9 9v7c0 1.1.9 2 2 2h4v-8H5v-1a7 7 0 0 1 14 0v1h-4v8h4c1.1 0 2-.9 2-2v-7a9 9 0 0 0-9-9z',
  album:
    'M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 14.5c-2.49 0-4.5-2.01-4.5-4.5S9.51 7.5 12 7.5s4.5 2.01 4.5 4.5-2.01 4.5-4.5 4.5zm0-5.5c-.55 0-1 .45-1 1s.45 1 1 1 1-.45 1-1-.45-1-1-1z',
  people:
    'M16 11c1.66 0 2.99-1.34 2.99-3S17.66 5 16 5c-1.66 0-3 1.34-3 3s1.34 3 3 3zm-8 0c1.66 0 2.99-1.34 2.99-3S9.66 5 8 5C6.34 5 5 6.34 5 8s1.34 3 3 3zm0 2c-2.33 0-7 1.17-7 3.5V19h14v-2.5c0-2.33-4.67-3.5-7-3.5zm8 0c-.29 0-.62.02-.97.05 1.16.84 1.97 1.97 1.97 3.45V19h6v-2.5c0-2.33-4.67-3.5-7-3.5z',
  person:
    'M12 12c2.21 0 4-1.79 4-4s-1.79-4-4-4-4 1.79-4 4 1.79 4 4 4zm0 2c-2.67 0-8 1.34-8 4v2h16v-2c0-2.66-5.33-4-8-4z',
  percent:
    'M7.5 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zm0-5a1.5 1.5 0 1 1 0 3 1.5 1.5 0 0 1 0-3zm9 7a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7zm0 5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3zM5.41 20 4 18.59 18.59 4 20 5.41z',
};

const benefits: { title: string; icon: string; text: (siteName: string) => string }[] = [
  {
    title: 'A fundraiser for your charity',
    icon: icons.heart,
    text: () =>
      'Your album raises money for the registered US 501(c)(3) charity you choose, with a goal bar that fills as fans give.',
  },
  {
    title: 'Fans donate, then listen',
    icon: icons.headphones,
    text: () =>
      'Everyone who gives at least your minimum can stream your album, download it, and save it to their phone to listen offline.',
  },
  {
    title: 'An album page to share',
    icon: icons.album,
    text: () =>
      'Your cover, a free preview anyone can play, the tracklist, your story and, if you like, a YouTube or Vimeo video, at a link of its own.',
  },
  {
    title: 'Your donor list',
    icon: icons.people,
    text: () =>
      'See who donated, how much and when, so you can thank them, and copy your invite link to send to your fans.',
  },
  {
    title: 'An artist profile',
    icon: icons.person,
    text: () => 'A page of your own with your description, your website and your fundraisers, for fans to find you by.',
  },
  {
    title: 'No percentage taken',
    icon: icons.percent,
    text: (siteName) =>
      `Starting a fundraiser is free. ${siteName} keeps nothing of a donation; only the card fee comes off.`,
  },
];
