import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { SoftBreaks } from '../components/soft-breaks.tsx';
import { PageHeader, Section } from '../components/ui.tsx';
import ContactForm from '../islands/contact-form.tsx';
import CopyButton from '../islands/copy-button.tsx';

/** Where the form posts; served by the contact endpoint. */
export const CONTACT_ENDPOINT = '/api/contact';

export function Contact({ data }: PageProps<SiteData>) {
  const { email, challenge } = data.site;
  return (
    <>
      <PageHeader
        eyebrow="Contact"
        title="Talk to us"
        intro="Questions about staking, a network you would like us to support, or a project to discuss: we reply within one business day."
      />
      <Section>
        <div className="contact-layout">
          <aside className="card contact-aside">
            <h2>E-mail us</h2>
            <p>Prefer e-mail? Write to us directly.</p>
            <div className="copy-value">
              <a href={`mailto:${email}`}>
                <SoftBreaks value={email} />
              </a>
              <CopyButton value={email} label="e-mail address" />
            </div>
          </aside>
          <div className="card contact-card">
            <h2>Send a message</h2>
            <noscript>
              <p className="notice">The form needs JavaScript for its spam check. You can also e-mail us at {email}.</p>
            </noscript>
            <ContactForm siteKey={challenge.siteKey} scriptUrl={challenge.scriptUrl} endpoint={CONTACT_ENDPOINT} />
          </div>
        </div>
      </Section>
    </>
  );
}
