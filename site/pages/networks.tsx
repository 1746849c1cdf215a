import type { PageProps } from 'ssg';
import type { Network, SiteData } from '../content.ts';
import { ExternalIcon } from '../components/icons.tsx';
import { NetworkLogo } from '../components/network-logo.tsx';
import { SoftBreaks } from '../components/soft-breaks.tsx';
import { PageHeader, Section } from '../components/ui.tsx';
import CopyButton from '../islands/copy-button.tsx';

const isExternal = (href: string) => /^https?:\/\//.test(href);

function NetworkCard({ network }: { network: Network }) {
  const headingId = `network-${network.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  // A card with endpoints is much taller than the others: it takes a whole row and puts its
  // endpoints in a second column, so no card leaves a hole beside it.
  const wide = network.copyItems.length > 0;
  return (
    <article className={`card network-card${wide ? ' network-card-wide' : ''}`} aria-labelledby={headingId}>
      <header className="network-header">
        <NetworkLogo src={network.logo} size={48} />
        <h2 id={headingId}>{network.name}</h2>
        <span className={`badge ${network.status === 'Active' ? 'badge-active' : 'badge-other'}`}>
          {network.status}
        </span>
      </header>

      <div className="network-body">
        {network.address && (
          <CopyValue
            label="Validator group address"
            value={network.address}
            copyLabel={`${network.name} validator group address`}
          />
        )}

        <ul className="tags" aria-label="Tags">
          {network.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>

        {network.links.length > 0 && <NetworkLinks links={network.links} />}

        <div className="note">
          <h3>{network.noteTitle}</h3>
          <p>{network.note}</p>
        </div>

        {network.cta && (
          <p className="network-cta">
            <a
              className="button"
              href={network.cta.href}
              {...(network.cta.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
            >
              {network.cta.label}
            </a>
          </p>
        )}
      </div>

      {wide && (
        <div className="copy-items">
          <h3>RPC endpoints</h3>
          {network.copyItems.map((item) => (
            <CopyValue
              key={item.label}
              label={item.label}
              value={item.value}
              copyLabel={`${network.name} ${item.label}`}
            />
          ))}
        </div>
      )}
    </article>
  );
}

function CopyValue({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div className="copy-row">
      <span className="copy-label">{label}</span>
      <div className="copy-value">
        <code>
          <SoftBreaks value={value} />
        </code>
        <CopyButton value={value} label={copyLabel} />
      </div>
    </div>
  );
}

function NetworkLinks({ links }: { links: Network['links'] }) {
  return (
    <ul className="link-list">
      {links.map((link) => (
        <li key={link.href}>
          {isExternal(link.href) ? (
            <a href={link.href} target="_blank" rel="noopener noreferrer">
              {link.label}
              <ExternalIcon />
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          ) : (
            <a href={link.href}>{link.label}</a>
          )}
        </li>
      ))}
    </ul>
  );
}

export function Networks({ data }: PageProps<SiteData>) {
  return (
    <>
      <PageHeader
        eyebrow="Networks"
        title="Networks we validate"
        intro="Stake with us on these Proof-of-Stake networks. Staking is non-custodial: your tokens stay under your control."
      />
      <Section>
        <div className="network-list">
          {data.networks.map((network) => (
            <NetworkCard key={network.name} network={network} />
          ))}
        </div>
      </Section>
    </>
  );
}
