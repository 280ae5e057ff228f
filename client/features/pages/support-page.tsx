import { Link } from 'react-router';
import { usePageTitle, useSite } from '../../lib/site';
import './pages.css';

export function SupportPage() {
  const { siteName, contactEmail } = useSite();
  usePageTitle(`Support ${siteName}`);
  const donationSubject = encodeURIComponent(`Donation to ${siteName}`);
  const volunteerSubject = encodeURIComponent(`Volunteering for ${siteName}`);
  return (
    <article className="page narrow stack">
      <h1>Support {siteName}</h1>
      <p className="lead">
        Every donation made through {siteName} goes to a charity, and we take no percentage. A gift to {siteName} itself
        keeps it that way.
      </p>

      <section className="stack" aria-labelledby="support-why-heading">
        <h2 id="support-why-heading">Why donate to {siteName}?</h2>
        <ul className="pages-list">
          <li>
            <strong>We are volunteers.</strong> Nobody here is paid. Your gift goes to the costs of running the service,
            not salaries.
          </li>
          <li>
            <strong>Servers cost money.</strong> Storing and streaming thousands of tracks, and sending receipts and
            download emails, has a monthly bill.
          </li>
          <li>
            <strong>Card fees add up.</strong> Our payment processor charges a fee on every payment, and the platform's
            own share of those fees is paid from tips and gifts.
          </li>
          <li>
            <strong>We are a 501(c)(3) non-profit,</strong> so a gift to {siteName} may be tax-deductible.
          </li>
        </ul>
      </section>

      <section className="stack card" aria-labelledby="support-donate-heading">
        <h2 id="support-donate-heading">Make a donation</h2>
        <p>
          Give to {siteName} directly by card, any amount from $1.00. You get a receipt by email. To give another way,
          write to us at <a href={`mailto:${contactEmail}?subject=${donationSubject}`}>{contactEmail}</a>.
        </p>
        <p>
          You can also support us every time you donate to a fundraiser by adding a tip. The tip comes on top of your
          donation, so the charity's share stays the same.
        </p>
        <p className="actions">
          <Link className="button button-primary" to="/support/donate">
            Donate to {siteName}
          </Link>
          <Link className="button button-secondary" to="/browse">
            Browse fundraisers
          </Link>
        </p>
      </section>

      <section className="stack" aria-labelledby="support-other-heading">
        <h2 id="support-other-heading">Other ways to help</h2>
        <ul className="pages-list">
          <li>
            <strong>Share fundraisers</strong> you love with your friends, on social media and in your newsletters.
            Every share can bring a new donation to a good cause.
          </li>
          <li>
            <strong>
              <Link to="/fundraisers/new">Start a fundraiser</Link>
            </strong>{' '}
            with your own music, or tell the artists you know about {siteName}.
          </li>
          <li>
            <strong>Volunteer.</strong> We welcome help with development, design, artist outreach and support. Write to{' '}
            <a href={`mailto:${contactEmail}?subject=${volunteerSubject}`}>{contactEmail}</a> and tell us what you would
            like to do.
          </li>
        </ul>
      </section>
    </article>
  );
}
