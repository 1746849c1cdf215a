import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { KeyIcon, ServerIcon, ShieldIcon } from '../components/icons.tsx';
import { NetworkIllustration } from '../components/network-illustration.tsx';
import { NetworkLogo } from '../components/network-logo.tsx';
import { ArrowLink, Card, Section } from '../components/ui.tsx';

type Words = PageProps['t'];

// The cards and questions by their keys in content/strings (home.values.<key>, home.faq.<key>).
const valueCards = [
  { key: 'infrastructure', Icon: ServerIcon },
  { key: 'nonCustodial', Icon: KeyIcon },
  { key: 'secure', Icon: ShieldIcon },
];

const faq = ['proofOfStake', 'nonCustodial', 'why', 'risks', 'access'];

function Hero({ t, localePath }: Pick<PageProps, 't' | 'localePath'>) {
  return (
    <section className="hero">
      <div className="container hero-inner">
        <div className="hero-text">
          <p className="eyebrow">{t('home.hero.eyebrow')}</p>
          <h1>{t('home.hero.title')}</h1>
          <p className="lead">{t('home.hero.lead')}</p>
          <div className="button-row">
            <a className="button" href={localePath('/networks')}>
              {t('home.hero.stake')}
            </a>
            <a className="button button-secondary" href={localePath('/contact')}>
              {t('home.hero.contact')}
            </a>
          </div>
        </div>
        <NetworkIllustration />
      </div>
    </section>
  );
}

function Values({ t, localePath }: Pick<PageProps, 't' | 'localePath'>) {
  return (
    <Section
      id="values"
      eyebrow={t('home.values.eyebrow')}
      title={t('home.values.title')}
      intro={t('home.values.intro')}
    >
      <div className="grid grid-3">
        {valueCards.map(({ key, Icon }) => (
          <Card key={key} title={t(`home.values.${key}.title`)} icon={<Icon />}>
            <p>{t(`home.values.${key}.text`)}</p>
          </Card>
        ))}
      </div>
      <ArrowLink href={localePath('/services')}>{t('home.values.more')}</ArrowLink>
    </Section>
  );
}

function ActiveNetworks({
  active,
  t,
  localePath,
}: { active: SiteData['networks'] } & Pick<PageProps, 't' | 'localePath'>) {
  return (
    <Section id="networks" eyebrow={t('home.networks.eyebrow')} title={t('home.networks.title')} tone="muted">
      <ul className="network-chips">
        {active.map((network) => (
          <li key={network.name}>
            <NetworkLogo src={network.logo} size={40} />
            <span>{network.name}</span>
          </li>
        ))}
      </ul>
      <ArrowLink href={localePath('/networks')}>{t('home.networks.more')}</ArrowLink>
    </Section>
  );
}

function Mission({ t }: { t: Words }) {
  return (
    <Section id="mission">
      <div className="mission">
        <div>
          <p className="eyebrow">{t('home.mission.eyebrow')}</p>
          <h2>{t('home.mission.title')}</h2>
        </div>
        <div>
          <p>{t('home.mission.first')}</p>
          <p>{t('home.mission.second')}</p>
        </div>
      </div>
    </Section>
  );
}

function Faq({ t }: { t: Words }) {
  return (
    <Section id="faq" eyebrow={t('home.faq.eyebrow')} title={t('home.faq.title')} tone="muted">
      <div className="faq">
        {faq.map((key) => (
          <details key={key} className="faq-item">
            <summary>{t(`home.faq.${key}.question`)}</summary>
            <p>{t(`home.faq.${key}.answer`)}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}

function Stats({ activeChains, t, localePath }: { activeChains: number } & Pick<PageProps, 't' | 'localePath'>) {
  const stats = [
    { label: t('home.stats.chains'), value: String(activeChains) },
    { label: t('home.stats.uptime'), value: t('home.stats.uptimeValue') },
    { label: t('home.stats.started'), value: '2022' },
    { label: t('home.stats.jurisdiction'), value: t('home.stats.jurisdictionValue') },
  ];
  return (
    <Section id="stats">
      <dl className="stats">
        {stats.map((stat) => (
          <div key={stat.label} className="stat">
            <dt>{stat.label}</dt>
            <dd>{stat.value}</dd>
          </div>
        ))}
      </dl>
      <ArrowLink href={localePath('/about')}>
        {t('home.stats.more')}
        <span className="visually-hidden">{` ${t('home.stats.moreHidden')}`}</span>
      </ArrowLink>
    </Section>
  );
}

export function Home({ data, t, localePath }: PageProps<SiteData>) {
  const active = data.networks.filter((network) => network.status === 'Active');
  return (
    <>
      <Hero t={t} localePath={localePath} />
      <Values t={t} localePath={localePath} />
      <ActiveNetworks active={active} t={t} localePath={localePath} />
      <Mission t={t} />
      <Faq t={t} />
      <Stats activeChains={active.length} t={t} localePath={localePath} />
    </>
  );
}
