import { type ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle, useSite } from '../../lib/site';
import './pages.css';

type Section = { id: string; title: string; body: ReactNode };

export function TermsPage() {
  usePageTitle('Privacy policy & terms of service');
  const { siteName, contactEmail, postalAddress } = useSite();
  const email = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  const privacy: Section[] = [
    {
      id: 'privacy-summary',
      title: 'The short version',
      body: (
        <p>
          We collect only what we need to run fundraisers, take donations and deliver music. We do not sell your data,
          show ads or use tracking cookies.
        </p>
      ),
    },
    {
      id: 'privacy-data',
      title: 'What we store',
      body: (
        <ul>
          <li>
            <strong>Your account:</strong> your first and last name, email address, whether you have verified it, and
            your password, which is stored only as a one-way hash that nobody, including us, can read back.
          </li>
          <li>
            <strong>Artists and fundraisers:</strong> the names, descriptions, websites, images and audio you upload.
            Once you publish them, they are public.
          </li>
          <li>
            <strong>Donations:</strong> the name and email address you give, the fundraiser, the amounts of your
            donation and tip, the date, and the payment processor's reference for the payment. We never receive or store
            your card number.
          </li>
          <li>
            <strong>Messages:</strong> you send us, so that we can answer them.
          </li>
          <li>
            <strong>Security records:</strong> we use IP addresses and email addresses to limit repeated failed login
            attempts, and our servers keep short-lived technical logs to investigate errors and abuse.
          </li>
        </ul>
      ),
    },
    {
      id: 'privacy-payments',
      title: 'Payments',
      body: (
        <p>
          Card payments are handled by our payment processor, Stripe. Your card details go directly from your browser to
          Stripe and are covered by Stripe's own privacy policy. We receive only the outcome of the payment, the amount,
          the processing fee and a reference number.
        </p>
      ),
    },
    {
      id: 'privacy-cookies',
      title: 'Cookies and browser storage',
      body: (
        <>
          <p>
            We use a single cookie: a session cookie that keeps you logged in. It is set when you log in, cannot be read
            by scripts on the page, and is removed when you log out or the session expires. We use no advertising,
            analytics or third-party cookies.
          </p>
          <p>
            If you install the app or save albums for offline listening, the app and those tracks are stored in your
            browser on your own device. You can remove saved albums from Your music or by clearing your browser's site
            data.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-analytics',
      title: 'Analytics',
      body: (
        <p>
          To understand which pages are useful, our own server counts page views and a few events, such as a fundraiser
          being published. This counting uses no cookies and stores no personal data: we record which page was viewed,
          not who viewed it. No third-party analytics service is involved.
        </p>
      ),
    },
    {
      id: 'privacy-email',
      title: 'Emails and the mailing list',
      body: (
        <>
          <p>
            We send the emails the service needs: verification codes, password reset links, and donation receipts with
            your download link.
          </p>
          <p>
            We add you to our mailing list only if you sign up for it. We use it for occasional news about {siteName}{' '}
            and its fundraisers. You can unsubscribe at any time with the link in any of those emails or by writing to{' '}
            {email}. If we use a mailing-list service to send these emails, it receives your email address for that
            purpose only.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-sharing',
      title: 'Who sees your data',
      body: (
        <ul>
          <li>
            <strong>Artists</strong> can see the name and email address of each donor to their own fundraisers, and the
            amount donated, so that they can thank their supporters.
          </li>
          <li>
            <strong>Charities</strong> receive the donated money from us. We do not give them your contact details.
          </li>
          <li>
            <strong>Service providers</strong> that run parts of the service for us (payment processing, email delivery
            and hosting) receive only what they need to do so.
          </li>
          <li>
            <strong>Authorities</strong>, only when the law requires it.
          </li>
        </ul>
      ),
    },
    {
      id: 'privacy-retention',
      title: 'Keeping and deleting your data',
      body: (
        <p>
          We keep your account for as long as you have it. You can ask us at {email} for a copy of your data, to correct
          it or to delete your account. Donation records are kept for as long as the law requires a non-profit to keep
          financial records, even after an account is deleted.
        </p>
      ),
    },
    {
      id: 'privacy-security',
      title: 'Security',
      body: (
        <p>
          The site is served over an encrypted connection, passwords are hashed, and access to personal data is limited
          to the volunteers who need it to run the service. If we ever learn of a breach that affects your data, we will
          tell you.
        </p>
      ),
    },
    {
      id: 'privacy-children',
      title: 'Children',
      body: (
        <p>
          {siteName} is not directed at children under 13, and we do not knowingly collect personal data from them. If
          you believe a child has given us personal data, contact us and we will delete it.
        </p>
      ),
    },
  ];

  const terms: Section[] = [
    {
      id: 'terms-using',
      title: `Using ${siteName}`,
      body: (
        <p>
          {siteName} is a volunteer-run US 501(c)(3) non-profit organization. By using the site you agree to these
          terms. If you do not agree, please do not use the service.
        </p>
      ),
    },
    {
      id: 'terms-accounts',
      title: 'Accounts',
      body: (
        <p>
          You must be at least 13 years old to create an account, and give accurate information. Keep your password to
          yourself: you are responsible for what happens under your account. Tell us right away at {email} if you think
          someone else has used it.
        </p>
      ),
    },
    {
      id: 'terms-uploads',
      title: 'Artists and uploads',
      body: (
        <>
          <p>
            When you upload audio, images or text, you confirm that you own it or have all the rights needed to share it
            on {siteName}, including the rights to the recordings, the compositions and the artwork, and that it does
            not break any law or anyone else's rights.
          </p>
          <p>
            You keep ownership of your work. You give {siteName} a non-exclusive, royalty-free license to store it,
            convert it into streaming formats, play previews to anyone, deliver the full tracks to the people who donate
            to your fundraiser, and show it when promoting your fundraiser. Donors keep access to music they received
            even if you later delete the fundraiser.
          </p>
          <p>
            We may remove content that infringes someone's rights or breaks these terms. To report content that
            infringes your rights, write to {email}.
          </p>
        </>
      ),
    },
    {
      id: 'terms-fundraisers',
      title: 'Fundraisers and charities',
      body: (
        <>
          <p>
            Every fundraiser supports a registered US 501(c)(3) charity. Do not suggest that a charity endorses you or
            your fundraiser unless it does. Once a fundraiser is published, its charity can only be changed by our
            administrators, for example if the charity can no longer accept donations.
          </p>
          <p>
            We pay out each charity's donations, minus card processing fees, to the charity. If a charity cannot receive
            the funds, we will work with the artist to choose another eligible charity with a similar purpose.
          </p>
        </>
      ),
    },
    {
      id: 'terms-donations',
      title: 'Donations and tips',
      body: (
        <p>
          A donation must be at least the minimum the artist has set. An optional tip goes to {siteName} to cover our
          running costs; {siteName} takes no share of the donation itself. The part of a donation above the artist's
          minimum is a tax-deductible gift, and your receipt shows that amount.
        </p>
      ),
    },
    {
      id: 'refunds',
      title: 'Refunds',
      body: (
        <p>
          Because donations go to charity and the music is delivered immediately, donations and tips are generally
          final. We refund duplicate or mistaken charges, and donations whose music we could not deliver, when you ask
          within 30 days at {email}. If you see a charge you did not make, contact us or your card issuer at once.
        </p>
      ),
    },
    {
      id: 'terms-music',
      title: 'Music you receive',
      body: (
        <p>
          Music you get by donating is for your personal, non-commercial use. You may stream it, download it and keep
          copies on your own devices, but not resell, redistribute or publicly perform it. The artist keeps all rights.
        </p>
      ),
    },
    {
      id: 'terms-acceptable-use',
      title: 'Acceptable use',
      body: (
        <p>
          Do not use {siteName} for fraud (including testing stolen cards), to upload hateful, harassing or illegal
          content, to interfere with the service or other people's use of it, or to collect other users' data. We may
          suspend accounts that do.
        </p>
      ),
    },
    {
      id: 'terms-liability',
      title: 'Our responsibility',
      body: (
        <p>
          Volunteers run {siteName} with care, but the service is provided as it is, without warranties. To the extent
          the law allows, {siteName} is not liable for indirect or consequential losses, or for content that artists
          upload.
        </p>
      ),
    },
    {
      id: 'terms-changes',
      title: 'Changes to this policy and these terms',
      body: (
        <p>
          We may update this page as the service changes. We will announce significant changes on the site or by email
          before they take effect.
        </p>
      ),
    },
  ];

  return (
    <article className="page narrow stack pages-legal">
      <h1>Privacy policy &amp; terms of service</h1>
      <p className="lead">
        How {siteName} handles your data, and the rules for artists, donors and everyone else who uses the site.
      </p>

      <nav className="card pages-toc" aria-labelledby="toc-heading">
        <h2 id="toc-heading">Contents</h2>
        <ol>
          <li>
            <a href="#privacy">Privacy policy</a>
            <TableOfContents sections={privacy} />
          </li>
          <li>
            <a href="#terms">Terms of service</a>
            <TableOfContents sections={terms} />
          </li>
          <li>
            <a href="#contact">Contact</a>
          </li>
        </ol>
      </nav>

      <section className="stack" id="privacy" aria-labelledby="privacy-heading">
        <h2 id="privacy-heading">Privacy policy</h2>
        <Sections sections={privacy} />
      </section>

      <section className="stack" id="terms" aria-labelledby="terms-heading">
        <h2 id="terms-heading">Terms of service</h2>
        <Sections sections={terms} />
      </section>

      <section className="stack" id="contact" aria-labelledby="contact-heading">
        <h2 id="contact-heading">Contact</h2>
        <p>
          Questions about this policy, your data or these terms? Email {email}, write to us at the address below, or use
          our <Link to="/contact">contact page</Link>.
        </p>
        <address>{postalAddress}</address>
      </section>
    </article>
  );
}

function TableOfContents({ sections }: { sections: Section[] }) {
  return (
    <ol>
      {sections.map((section) => (
        <li key={section.id}>
          <a href={`#${section.id}`}>{section.title}</a>
        </li>
      ))}
    </ol>
  );
}

function Sections({ sections }: { sections: Section[] }) {
  return sections.map((section) => (
    <section key={section.id} id={section.id} className="stack" aria-labelledby={`${section.id}-heading`}>
      <h3 id={`${section.id}-heading`}>{section.title}</h3>
      {section.body}
    </section>
  ));
}
