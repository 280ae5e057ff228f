import { Link } from 'react-router';
import { usePageTitle, useSite } from '../../lib/site';
import './pages.css';

export function HowItWorksPage() {
  usePageTitle('How it works');
  const { siteName } = useSite();
  return (
    <article className="page narrow stack">
      <h1>How it works</h1>
      <p className="lead">
        Artists offer their music in exchange for donations to a charity they choose. Fans donate, the charity gets the
        money, and the fans get the music.
      </p>

      <section className="stack" aria-labelledby="how-artists-heading">
        <h2 id="how-artists-heading">For artists</h2>
        <ol className="pages-steps">
          <li>
            <h3>Create your artist profile</h3>
            <p>
              Sign up, verify your email address and create an artist: a name, a short description, your website and a
              profile image. Bands and solo projects can each have their own artist.
            </p>
          </li>
          <li>
            <h3>Create a fundraiser</h3>
            <p>
              Pick the charity you want to support. It must be a registered US 501(c)(3) non-profit; you look it up by
              its EIN, the charity's tax ID number. Then set the minimum donation fans give to get your music ($2 or
              more, in whole dollars) and a fundraising goal.
            </p>
          </li>
          <li>
            <h3>Upload your music</h3>
            <p>
              Add a square album cover, a short preview track that anyone can listen to (up to a minute works best), and
              your tracks as WAV or MP3 files, up to 40 per album.
            </p>
          </li>
          <li>
            <h3>Publish and share</h3>
            <p>
              Your fundraiser stays a private draft until you publish it. Once it is published, fans can donate, and the
              charity can no longer be changed. Share the link with your fans and watch the total grow.
            </p>
          </li>
        </ol>
        <p className="actions">
          <Link className="button button-primary" to="/fundraisers/new">
            Start a fundraiser
          </Link>
          <Link className="button button-secondary" to="/for-artists">
            What artists get
          </Link>
        </p>
      </section>

      <section className="stack" aria-labelledby="how-fans-heading">
        <h2 id="how-fans-heading">For fans</h2>
        <ol className="pages-steps">
          <li>
            <h3>Find music you love</h3>
            <p>Browse and search fundraisers by name, genre or charity, or look up your favorite artists.</p>
          </li>
          <li>
            <h3>Listen to a preview</h3>
            <p>Every fundraiser has a free preview track, so you know what you are getting.</p>
          </li>
          <li>
            <h3>Donate</h3>
            <p>
              Give at least the artist's minimum, or more if you like. You can also add an optional tip that helps keep{' '}
              {siteName} running.
            </p>
          </li>
          <li>
            <h3>Enjoy your music</h3>
            <p>
              We email you a download link right away. With an account under the same email, the album also appears in
              Your music, where you can stream it, download it, or save it to your device to listen offline.
            </p>
          </li>
        </ol>
        <p className="actions">
          <Link className="button button-primary" to="/browse">
            Browse music
          </Link>
        </p>
      </section>

      <section className="stack" aria-labelledby="how-money-heading">
        <h2 id="how-money-heading">Where the money goes</h2>
        <p>
          Your donation goes to the charity the artist chose, minus the card processing fees charged by our payment
          provider (roughly 2.5%). {siteName} takes no percentage. Tips go to {siteName}, a volunteer-run non-profit,
          and pay for servers, storage and email.
        </p>
        <p>
          The part of your donation above the artist's minimum is a tax-deductible gift; your receipt shows the amount.
          Have a question we did not answer? <Link to="/contact">Read the FAQ or contact us</Link>.
        </p>
      </section>
    </article>
  );
}
