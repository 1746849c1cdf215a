import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { ActivityIcon, CompassIcon, KeyIcon, ServerIcon } from '../components/icons.tsx';
import { ArrowLink, Card, PageHeader, Section } from '../components/ui.tsx';

const services = [
  {
    title: 'Validator Operations',
    text: 'We set up and run validators on redundant bare-metal infrastructure, handle client upgrades and network forks, and keep them online around the clock.',
    Icon: ServerIcon,
  },
  {
    title: 'Non-Custodial Staking',
    text: 'Stake with our validators while keeping full control of your tokens and withdrawal keys. Rewards are paid directly by the network.',
    Icon: KeyIcon,
  },
  {
    title: 'Monitoring & Reporting',
    text: '24/7 monitoring with alerting and on-call engineers, and clear reports on performance, rewards and uptime for your records.',
    Icon: ActivityIcon,
  },
  {
    title: 'Infrastructure Advisory',
    text: 'Advice on running your own nodes: hardware, key management, high availability and security reviews from a team that does it every day.',
    Icon: CompassIcon,
  },
];

export function Services(_: PageProps<SiteData>) {
  return (
    <>
      <PageHeader
        eyebrow="Services"
        title="What we do"
        intro="From running validators for your stake to advising on your own node infrastructure."
      />
      <Section>
        <div className="grid grid-2">
          {services.map(({ title, text, Icon }) => (
            <Card key={title} title={title} icon={<Icon />} level={2}>
              <p>{text}</p>
            </Card>
          ))}
        </div>
        <p className="section-cta">
          <ArrowLink href="/contact">Talk to us about your project</ArrowLink>
        </p>
      </Section>
    </>
  );
}
