import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { copyWords } from '../components/copy-words.ts';
import { SoftBreaks } from '../components/soft-breaks.tsx';
import { PageHeader, Section } from '../components/ui.tsx';
import ContactForm, { type ContactWords } from '../islands/contact-form.tsx';
import CopyButton from '../islands/copy-button.tsx';

/** Where the form posts; served by the contact endpoint. */
export const CONTACT_ENDPOINT = '/api/contact';

/** The form's words in the page's language: its labels, its states and its messages. */
function contactWords(t: PageProps['t']): ContactWords {
  const key = (name: keyof ContactWords) => t(`contact.form.${name}`);
  return {
    name: key('name'),
    email: key('email'),
    subject: key('subject'),
    message: key('message'),
    send: key('send'),
    sending: key('sending'),
    verificationFailed: key('verificationFailed'),
    requestFailed: key('requestFailed'),
    success: key('success'),
    blockedBefore: key('blockedBefore'),
    blockedAfter: key('blockedAfter'),
  };
}

export function Contact({ data, locale, t }: PageProps<SiteData>) {
  const { email, challenge } = data.site;
  return (
    <>
      <PageHeader eyebrow={t('contact.eyebrow')} title={t('contact.heading')} intro={t('contact.intro')} />
      <Section>
        <div className="contact-layout">
          <aside className="card contact-aside">
            <h2>{t('contact.emailTitle')}</h2>
            <p>{t('contact.emailText')}</p>
            <div className="copy-value">
              <a href={`mailto:${email}`}>
                <SoftBreaks value={email} />
              </a>
              <CopyButton value={email} label={t('contact.emailCopy')} words={copyWords(t)} />
            </div>
          </aside>
          <div className="card contact-card">
            <h2>{t('contact.formTitle')}</h2>
            <noscript>
              <p className="notice">{t('contact.noscript', { email })}</p>
            </noscript>
            <ContactForm
              siteKey={challenge.siteKey}
              scriptUrl={challenge.scriptUrl}
              endpoint={CONTACT_ENDPOINT}
              email={email}
              locale={locale}
              words={contactWords(t)}
            />
          </div>
        </div>
      </Section>
    </>
  );
}

/**
 * Where the contact endpoint sends a form the browser posted without JavaScript (its path is the
 * endpoint's FORM_POST_PAGE, below the form's language): nothing was sent, and the e-mail address
 * is the way that works.
 */
export function ContactWithoutScript({ data, localePath, t }: PageProps<SiteData>) {
  const { email } = data.site;
  return (
    <>
      <PageHeader
        eyebrow={t('contact.eyebrow')}
        title={t('contact.noScript.heading')}
        intro={t('contact.noScript.intro')}
      />
      <Section>
        <div className="card contact-aside">
          <h2>{t('contact.noScript.emailTitle')}</h2>
          <p>
            {t('contact.noScript.before')} <a href={`mailto:${email}`}>{email}</a>
            {t('contact.noScript.middle')} <a href={localePath('/contact')}>{t('contact.noScript.form')}</a>{' '}
            {t('contact.noScript.after')}
          </p>
        </div>
      </Section>
    </>
  );
}
