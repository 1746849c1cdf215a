import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { ActivityIcon, CompassIcon, KeyIcon, ServerIcon } from '../components/icons.tsx';
import { ArrowLink, Card, PageHeader, Section } from '../components/ui.tsx';

// The cards by their keys in content/strings (services.<key>.title and .text).
const services = [
  { key: 'operations', Icon: ServerIcon },
  { key: 'staking', Icon: KeyIcon },
  { key: 'monitoring', Icon: ActivityIcon },
  { key: 'advisory', Icon: CompassIcon },
];

export function Services({ t, localePath }: PageProps<SiteData>) {
  return (
    <>
      <PageHeader eyebrow={t('services.eyebrow')} title={t('services.heading')} intro={t('services.intro')} />
      <Section>
        <div className="grid grid-2">
          {services.map(({ key, Icon }) => (
            <Card key={key} title={t(`services.${key}.title`)} icon={<Icon />} level={2}>
              <p>{t(`services.${key}.text`)}</p>
            </Card>
          ))}
        </div>
        <p className="section-cta">
          <ArrowLink href={localePath('/contact')}>{t('services.more')}</ArrowLink>
        </p>
      </Section>
    </>
  );
}
