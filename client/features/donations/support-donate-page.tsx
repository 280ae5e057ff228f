import { Link } from 'react-router';
import { usePageTitle, useSite } from '../../lib/site';
import { DonationForm } from './donation-form';
import './donations.css';

// /support/donate: a gift to the platform itself, through the same payment flow as a donation
// (DESIGN.md section 4: the support page; a tip only, at least $1.00).

export function SupportDonatePage() {
  const { siteName } = useSite();
  usePageTitle(`Donate to ${siteName}`);
  return (
    <div className="page donate-page stack">
      <p>
        <Link to="/support">← Back to Support {siteName}</Link>
      </p>
      <h1>Donate to {siteName}</h1>
      <p className="lead">Your gift pays for the servers and the card fees, so every donation reaches its charity.</p>
      <DonationForm target={{ kind: 'platform' }} />
    </div>
  );
}
