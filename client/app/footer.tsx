import { Link } from 'react-router';
import { useLoginDialog } from '../features/accounts/login-dialog-store';
import { MailingListSlot } from '../features/mailing-list/mailing-list-slot';
import { useUser } from '../lib/session';
import { useSite } from '../lib/site';
import { footerLinks } from './nav-links';

export function Footer() {
  const user = useUser();
  const site = useSite();
  const showLogin = useLoginDialog((state) => state.show);
  return (
    <footer className="site-footer">
      <div className="footer-inner">
        <section className="footer-mission" aria-labelledby="footer-mission-heading">
          <h2 id="footer-mission-heading">{site.siteName}</h2>
          <p>
            A volunteer-run non-profit where artists share their music to raise money for the charities they care about.
            Fans donate, the charity receives the money, and the music is theirs to keep.
          </p>
          {!user && (
            <button type="button" className="button button-on-dark" onClick={showLogin}>
              Log in
            </button>
          )}
        </section>
        <nav className="footer-links" aria-label="Quick links">
          <h2>Quick links</h2>
          <ul>
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <section className="footer-signup" aria-label="Stay in touch">
          <h2>Stay in touch</h2>
          <MailingListSlot />
          {site.socialLinks.length > 0 && (
            <ul className="social-links" aria-label="Social media">
              {site.socialLinks.map((link) => (
                <li key={link.url}>
                  <a href={link.url} target="_blank" rel="noreferrer noopener">
                    {link.label}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <div className="footer-bottom">
        <p>
          © {new Date().getFullYear()} {site.siteName}. All rights reserved.
        </p>
        <Link to="/terms">Privacy policy &amp; terms of service</Link>
      </div>
    </footer>
  );
}
