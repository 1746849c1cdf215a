import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { socialIcons, socialLabels } from '../components/icons.tsx';
import { Picture } from '../components/picture.tsx';
import { ArrowLink, PageHeader, Section } from '../components/ui.tsx';
import { memberIn } from '../locales.ts';

export function About({ data, locale, localePath, t }: PageProps<SiteData>) {
  const brand = data.site.brand;
  return (
    <>
      <PageHeader eyebrow={t('about.eyebrow')} title={t('about.heading')} intro={t('about.intro', { brand })} />
      <Section id="mission" eyebrow={t('about.mission.eyebrow')} title={t('about.mission.title')}>
        <div className="prose">
          <p>{t('about.mission.first')}</p>
          <p>{t('about.mission.second')}</p>
          <p>{t('about.mission.third')}</p>
        </div>
      </Section>
      <Section id="team" eyebrow={t('about.team.eyebrow')} title={t('about.team.title')} tone="muted">
        <ul className="team grid grid-2">
          {data.team.map((person, index) => {
            const member = memberIn(person, locale);
            return (
              <li key={member.name} className="card team-card">
                <Picture
                  src={member.photo}
                  picture={data.images?.[member.photo]}
                  alt={t('about.team.portrait', { name: member.name })}
                  sizes="96px"
                  width={96}
                  height={96}
                  eager={index === 0}
                />
                <div>
                  <h3>{member.name}</h3>
                  <p className="team-role">{member.role}</p>
                  {member.bio && <p>{member.bio}</p>}
                  <ul className="social-links" aria-label={t('about.team.social', { name: member.name })}>
                    {(Object.keys(member.links) as Array<keyof typeof member.links>).map((key) => {
                      const href = member.links[key];
                      if (!href) return null;
                      const Icon = socialIcons[key];
                      const profile = t('about.team.profile', { name: member.name, network: socialLabels[key] });
                      return (
                        <li key={key}>
                          <a href={href} target="_blank" rel="noopener noreferrer">
                            <Icon />
                            <span className="visually-hidden">{`${profile} (${t('layout.newTab')})`}</span>
                          </a>
                        </li>
                      );
                    })}
                  </ul>
                </div>
              </li>
            );
          })}
        </ul>
        <p className="team-contact">
          <ArrowLink href={localePath('/contact')}>{t('about.team.contact')}</ArrowLink>
        </p>
      </Section>
    </>
  );
}
