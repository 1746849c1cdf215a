import type { PageProps } from 'ssg';
import type { SiteData } from '../content.ts';
import { socialIcons, socialLabels } from '../components/icons.tsx';
import { Picture } from '../components/picture.tsx';
import { ArrowLink, PageHeader, Section } from '../components/ui.tsx';

export function About({ data }: PageProps<SiteData>) {
  return (
    <>
      <PageHeader
        eyebrow="About us"
        title="Infrastructure people you can stake with"
        intro={`${data.site.brand} runs non-custodial validator and node infrastructure for Proof-of-Stake networks from Vienna, Austria.`}
      />
      <Section id="mission" eyebrow="Mission" title="Our mission">
        <div className="prose">
          <p>
            Proof-of-Stake networks are only as strong as the people who run them. Our mission is to secure the networks
            we believe in with professional, redundant infrastructure, and to make staking simple and safe for everyone
            who delegates to us, from individual holders to funds, DAOs and institutions.
          </p>
          <p>
            We have been validating since 2022. Our validators run on bare-metal servers we control, with 24/7
            monitoring and safeguards against double signing. Staking with us is non-custodial: you keep your keys, and
            rewards are paid directly by the network.
          </p>
          <p>
            Beyond validation, we work on blockchain and web3 services: running public RPC endpoints, advising teams on
            node infrastructure and contributing to the ecosystems we are part of.
          </p>
        </div>
      </Section>
      <Section id="team" eyebrow="People" title="Team" tone="muted">
        <ul className="team grid grid-2">
          {data.team.map((member, index) => (
            <li key={member.name} className="card team-card">
              <Picture
                src={member.photo}
                picture={data.images?.[member.photo]}
                alt={`Portrait of ${member.name}`}
                sizes="96px"
                width={96}
                height={96}
                eager={index === 0}
              />
              <div>
                <h3>{member.name}</h3>
                <p className="team-role">{member.role}</p>
                {member.bio && <p>{member.bio}</p>}
                <ul className="social-links" aria-label={`${member.name} on social media`}>
                  {(Object.keys(member.links) as Array<keyof typeof member.links>).map((key) => {
                    const href = member.links[key];
                    if (!href) return null;
                    const Icon = socialIcons[key];
                    return (
                      <li key={key}>
                        <a href={href} target="_blank" rel="noopener noreferrer">
                          <Icon />
                          <span className="visually-hidden">
                            {member.name} on {socialLabels[key]} (opens in a new tab)
                          </span>
                        </a>
                      </li>
                    );
                  })}
                </ul>
              </div>
            </li>
          ))}
        </ul>
        <p className="team-contact">
          <ArrowLink href="/contact">Get in touch with the team</ArrowLink>
        </p>
      </Section>
    </>
  );
}
