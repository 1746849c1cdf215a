import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { PageHeader, Section } from '../components/ui.tsx';

export function Legal({ data }: PageProps<SiteData>) {
  const { legal, email, brand } = data.site;
  return (
    <>
      <PageHeader
        eyebrow="Legal"
        title="Legal notice"
        intro="Information according to § 5 ECG and § 25 MedienG (Austria)."
      />
      <Section>
        <div className="prose legal">
          <h2>Company</h2>
          <address>
            <strong>{legal.companyName}</strong>
            {legal.address.map((line) => (
              <span key={line}>
                <br />
                {line}
              </span>
            ))}
          </address>
          <dl className="legal-facts">
            <dt>E-mail</dt>
            <dd>
              <a href={`mailto:${email}`}>{email}</a>
            </dd>
            <dt>Company register number</dt>
            <dd>{legal.registerNumber}</dd>
            <dt>VAT id</dt>
            <dd>{legal.vatId}</dd>
            <dt>Commercial register court</dt>
            <dd>{legal.registerCourt}</dd>
            <dt>Managing directors</dt>
            <dd>{legal.managingDirectors.join(', ')}</dd>
          </dl>

          <h2>Terms</h2>
          <p>
            The content of this website is general information only. It is not financial, investment or legal advice,
            and it is no offer or solicitation to buy or sell any token. Staking involves risks, including the loss of
            rewards and, on some networks, penalties; make your own assessment or seek professional advice before you
            stake.
          </p>

          <h2>Liability</h2>
          <p>
            We prepare the content of this website with care but cannot guarantee that it is complete, correct or up to
            date. We are not liable for damages arising from the use of the information on this website, except where
            the law does not allow liability to be excluded.
          </p>

          <h2>Copyright</h2>
          <p>
            The texts, images and design of this website are protected by copyright and belong to {brand} unless stated
            otherwise. Any use beyond the limits of copyright law needs our written consent.
          </p>

          <h2>Links</h2>
          <p>
            This website links to websites of third parties. We have no influence on their content and accept no
            responsibility for it; the provider of each linked website is responsible for its content.
          </p>

          <h2>Privacy</h2>
          <p>
            We process only the personal data needed to run this website and to answer your inquiries. When you use the
            contact form, we process the details you enter (name, e-mail address, subject and message) to handle your
            request, and we do not use them for anything else. To protect the form from abuse, it uses a bot check by
            Cloudflare Turnstile, which processes technical data of your browser. You may ask us at any time what data
            we hold about you and request its correction or deletion by writing to{' '}
            <a href={`mailto:${email}`}>{email}</a>.
          </p>
        </div>
      </Section>
    </>
  );
}
