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
        intro="Questions about staking, a network you would like us to support, or a project to discuss: write to us here."
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
            <ContactForm
              siteKey={challenge.siteKey}
              scriptUrl={challenge.scriptUrl}
              endpoint={CONTACT_ENDPOINT}
              email={email}
            />
          </div>
        </div>
      </Section>
    </>
  );
}

/**
 * Where the contact endpoint sends a form the browser posted without JavaScript (its path is the
 * endpoint's FORM_POST_PAGE): nothing was sent, and the e-mail address is the way that works.
 */
export function ContactWithoutScript({ data }: PageProps<SiteData>) {
  const { email } = data.site;
  return (
    <>
      <PageHeader
        eyebrow="Contact"
        title="Your message was not sent"
        intro="The contact form needs JavaScript for its spam check, and it was off or blocked in your browser. Nothing you typed was sent or stored."
      />
      <Section>
        <div className="card contact-aside">
          <h2>E-mail us instead</h2>
          <p>
            Write to us at <a href={`mailto:${email}`}>{email}</a>, or turn JavaScript on and use the{' '}
            <a href="/contact">contact form</a> again.
          </p>
        </div>
      </Section>
    </>
  );
}
