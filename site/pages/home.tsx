import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { KeyIcon, ServerIcon, ShieldIcon } from '../components/icons.tsx';
import { NetworkIllustration } from '../components/network-illustration.tsx';
import { NetworkLogo } from '../components/network-logo.tsx';
import { ArrowLink, Card, Section } from '../components/ui.tsx';

const valueCards = [
  {
    title: 'Highly available infrastructure',
    text: 'Redundant bare-metal servers in professional data centres, watched 24/7, so your stake keeps earning through upgrades and outages.',
    Icon: ServerIcon,
  },
  {
    title: 'Non-custodial staking',
    text: 'You keep your keys and your tokens. We never hold your funds: rewards are paid directly by the network to you.',
    Icon: KeyIcon,
  },
  {
    title: 'Secure and transparent',
    text: 'Hardened systems, careful key management and public on-chain performance you can check at any time.',
    Icon: ShieldIcon,
  },
];

const faq = [
  {
    question: 'What is Proof-of-Stake?',
    answer:
      'Proof-of-Stake is how many blockchains agree on new blocks. Instead of burning energy, validators lock up tokens as a security deposit and are chosen to propose and attest to blocks. Honest work is rewarded; misbehaviour can be penalised.',
  },
  {
    question: 'What is non-custodial staking?',
    answer:
      'Your tokens never leave your control. You delegate or assign your stake to our validators, but you keep the keys to your funds and we cannot move them. Rewards are paid by the network, not by us.',
  },
  {
    question: 'Why should I stake?',
    answer:
      'Staking earns rewards on tokens you hold and helps secure the networks you believe in. With a professional operator you get those rewards without running servers around the clock yourself.',
  },
  {
    question: 'What are the risks of delegating?',
    answer:
      'If a validator is offline it misses rewards, and on some networks serious faults such as double signing are penalised (slashing). We reduce these risks with redundant infrastructure, monitoring and safeguards against double signing. Staking also involves market risk on the token itself.',
  },
  {
    question: 'Can I access my tokens while they are staked?',
    answer:
      'It depends on the network. On some, staked tokens stay in your wallet and can be unlocked after a waiting period; on others, withdrawals go through an exit queue. We explain the rules of each network before you stake.',
  },
];

function Hero() {
  return (
    <section className="hero">
      <div className="container hero-inner">
        <div className="hero-text">
          <p className="eyebrow">Validator &amp; node operator · Vienna, Austria</p>
          <h1>Non-custodial staking on infrastructure built to stay online</h1>
          <p className="lead">
            We run redundant bare-metal validators with 24/7 monitoring for Proof-of-Stake networks. You keep your keys;
            rewards are paid directly by the network.
          </p>
          <div className="button-row">
            <a className="button" href="/networks">
              Stake with us
            </a>
            <a className="button button-secondary" href="/contact">
              Contact
            </a>
          </div>
        </div>
        <NetworkIllustration />
      </div>
    </section>
  );
}

function Values() {
  return (
    <Section
      id="values"
      eyebrow="Why us"
      title="Why stake with us"
      intro="Built for stakers, funds, DAOs and institutions that need a dependable operator."
    >
      <div className="grid grid-3">
        {valueCards.map(({ title, text, Icon }) => (
          <Card key={title} title={title} icon={<Icon />}>
            <p>{text}</p>
          </Card>
        ))}
      </div>
      <ArrowLink href="/services">Explore our services</ArrowLink>
    </Section>
  );
}

function ActiveNetworks({ active }: { active: SiteData['networks'] }) {
  return (
    <Section id="networks" eyebrow="Networks" title="Active networks" tone="muted">
      <ul className="network-chips">
        {active.map((network) => (
          <li key={network.name}>
            <NetworkLogo src={network.logo} size={40} />
            <span>{network.name}</span>
          </li>
        ))}
      </ul>
      <ArrowLink href="/networks">See all networks and how to stake</ArrowLink>
    </Section>
  );
}

function Mission() {
  return (
    <Section id="mission">
      <div className="mission">
        <div>
          <p className="eyebrow">Our mission</p>
          <h2>Aligned with the networks we secure</h2>
        </div>
        <div>
          <p>
            We only validate networks we believe in, and we stake our own tokens beside yours. When the network is
            healthy, decentralised and secure, our delegators and we succeed together.
          </p>
          <p>
            That is why we take part in governance, run public infrastructure such as RPC endpoints, and publish how we
            operate.
          </p>
        </div>
      </div>
    </Section>
  );
}

function Faq() {
  return (
    <Section id="faq" eyebrow="FAQ" title="Frequently asked questions" tone="muted">
      <div className="faq">
        {faq.map(({ question, answer }) => (
          <details key={question} className="faq-item">
            <summary>{question}</summary>
            <p>{answer}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}

function Stats({ activeChains }: { activeChains: number }) {
  const stats = [
    { label: 'Active Chains', value: String(activeChains) },
    { label: 'Uptime', value: '99.9%+' },
    { label: 'Started Validating', value: '2022' },
    { label: 'Jurisdiction', value: 'Vienna, Austria' },
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
      <ArrowLink href="/about">
        Learn more<span className="visually-hidden"> about us</span>
      </ArrowLink>
    </Section>
  );
}

export function Home({ data }: PageProps<SiteData>) {
  const active = data.networks.filter((network) => network.status === 'Active');
  return (
    <>
      <Hero />
      <Values />
      <ActiveNetworks active={active} />
      <Mission />
      <Faq />
      <Stats activeChains={active.length} />
    </>
  );
}
