import { type ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle, useSite } from '../../lib/site';
import './pages.css';

type Faq = { question: string; answer: ReactNode };

export function ContactPage() {
  usePageTitle('Contact');
  const { siteName, contactEmail, postalAddress } = useSite();
  const email = <a href={`mailto:${contactEmail}`}>{contactEmail}</a>;

  const faqs: Faq[] = [
    {
      question: 'Is my donation tax-deductible?',
      answer: (
        <p>
          Partly. The artist's minimum donation is what you pay for the music, so it is not a gift. Anything you give
          above the minimum is a tax-deductible donation, and your receipt email shows that amount. If you are unsure
          how it applies to you, ask a tax advisor.
        </p>
      ),
    },
    {
      question: 'Are there any fees?',
      answer: (
        <p>
          {siteName} takes no percentage of donations. The only deduction is the card processing fee charged by our
          payment provider, roughly 2.5% of the amount paid. Starting and running a fundraiser is free.
        </p>
      ),
    },
    {
      question: 'How do charities get paid?',
      answer: (
        <p>
          Donations are collected by {siteName}, a US 501(c)(3) non-profit. Our volunteers regularly pay out each
          charity's donations, minus card fees, through an established charitable giving platform that delivers funds to
          registered non-profits, and record every payout.
        </p>
      ),
    },
    {
      question: 'Which charities can I raise money for?',
      answer: (
        <p>
          Any registered US 501(c)(3) non-profit. When you create a fundraiser you look the charity up by its EIN, its
          tax ID number, which you can usually find on the charity's website or in the IRS Tax Exempt Organization
          Search.
        </p>
      ),
    },
    {
      question: 'What kind of audio can I upload?',
      answer: (
        <p>
          Any original audio you own or have the rights to share: music, spoken word, comedy, meditations and more.
          Tracks are uploaded as WAV or MP3 files, up to 40 per fundraiser, with a JPEG or PNG album cover. Please do
          not upload covers of other people's songs, samples or recordings you do not have permission to distribute.
        </p>
      ),
    },
    {
      question: 'Can I change the charity after publishing?',
      answer: (
        <p>
          No. Fans donate with a specific charity in mind, so the charity is fixed once a fundraiser is published. If
          the charity can no longer accept donations or you made a mistake, write to us at {email} and an administrator
          will help.
        </p>
      ),
    },
    {
      question: 'Can I edit or delete my fundraiser?',
      answer: (
        <p>
          You can edit a fundraiser as much as you like while it is a draft. After publishing, contact us for changes.
          You can delete a fundraiser at any time; it then takes no new donations, and donations already made still go
          to the charity.
        </p>
      ),
    },
    {
      question: "I donated but didn't get my download email.",
      answer: (
        <>
          <p>The email is usually there within a few minutes. If it is not:</p>
          <ul>
            <li>Check your spam, junk or promotions folder.</li>
            <li>Make sure you search the inbox of the email address you entered when donating.</li>
            <li>
              <Link to="/signup">Create an account</Link> or <Link to="/login">log in</Link> with that same email
              address: everything you bought appears in Your music.
            </li>
            <li>
              Still nothing? Email {email} with the fundraiser's name, the date of your donation and the email address
              you used, and we will send it again.
            </li>
          </ul>
        </>
      ),
    },
    {
      question: 'Can I listen offline?',
      answer: (
        <p>
          Yes. Albums in Your music can be saved to your device and played without a connection. You can also download
          the original files and play them in any music player.
        </p>
      ),
    },
    {
      question: 'Can I get a refund?',
      answer: (
        <p>
          Donations are gifts to charity and the music is delivered right away, so they are generally final. If you were
          charged by mistake (for example twice for the same donation) or we could not deliver your music, email
          {email} within 30 days and we will refund you. See our <Link to="/terms#refunds">refund policy</Link> for
          details.
        </p>
      ),
    },
  ];

  return (
    <article className="page narrow stack">
      <h1>Contact</h1>

      <section className="stack" aria-labelledby="contact-heading">
        <h2 id="contact-heading">Get in touch</h2>
        <p>
          {siteName} is run by volunteers, and we read every message. Whether you are an artist, a fan or a charity,
          write to us and we will get back to you as soon as we can.
        </p>
        <dl className="pages-contact">
          <div>
            <dt>Email</dt>
            <dd>{email}</dd>
          </div>
          <div>
            <dt>Mail</dt>
            <dd>
              <address>{postalAddress}</address>
            </dd>
          </div>
        </dl>
      </section>

      <section className="stack" aria-labelledby="faq-heading">
        <h2 id="faq-heading">Frequently asked questions</h2>
        <div className="pages-faq">
          {faqs.map((faq) => (
            <details key={faq.question}>
              <summary>{faq.question}</summary>
              <div className="pages-faq-answer">{faq.answer}</div>
            </details>
          ))}
        </div>
      </section>
    </article>
  );
}
