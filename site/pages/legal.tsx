import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { PageHeader, Section } from '../components/ui.tsx';
import { siteIn } from '../locales.ts';

/** The legal notice; in German the Austrian "Impressum", its sections under their German names. */
export function Legal({ data, locale, t }: PageProps<SiteData>) {
  const { email, brand } = data.site;
  const { legal } = siteIn(data.site, locale);
  const mail = <a href={`mailto:${email}`}>{email}</a>;
  return (
    <>
      <PageHeader eyebrow={t('legal.eyebrow')} title={t('legal.heading')} intro={t('legal.intro')} />
      <Section>
        <div className="prose legal">
          <h2>{t('legal.company')}</h2>
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
            <dt>{t('legal.email')}</dt>
            <dd>{mail}</dd>
            <dt>{t('legal.registerNumber')}</dt>
            <dd>{legal.registerNumber}</dd>
            <dt>{t('legal.vatId')}</dt>
            <dd>{legal.vatId}</dd>
            <dt>{t('legal.registerCourt')}</dt>
            <dd>{legal.registerCourt}</dd>
            <dt>{t('legal.managingDirectors')}</dt>
            <dd>{legal.managingDirectors.join(', ')}</dd>
          </dl>

          <h2>{t('legal.terms.title')}</h2>
          <p>{t('legal.terms.text')}</p>

          <h2>{t('legal.liability.title')}</h2>
          <p>{t('legal.liability.text')}</p>

          <h2>{t('legal.copyright.title')}</h2>
          <p>{t('legal.copyright.text', { brand })}</p>

          <h2>{t('legal.links.title')}</h2>
          <p>{t('legal.links.text')}</p>

          <h2>{t('legal.privacy.title')}</h2>
          <p>
            {t('legal.privacy.text')} {mail}.
          </p>
        </div>
      </Section>
    </>
  );
}
