import type { PageProps } from 'ssg';
import type { Network, SiteData } from '../content.ts';
import { ExternalIcon } from '../components/icons.tsx';
import { PageHeader, Section } from '../components/ui.tsx';
import CopyButton from '../islands/copy-button.tsx';

const isExternal = (href: string) => /^https?:\/\//.test(href);

function NetworkCard({ network }: { network: Network }) {
  const headingId = `network-${network.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <article className="card network-card" aria-labelledby={headingId}>
      <header className="network-header">
        <img src={network.logo} alt="" width={48} height={48} />
        <h2 id={headingId}>{network.name}</h2>
        <span className={`badge ${network.status === 'Active' ? 'badge-active' : 'badge-other'}`}>{network.status}</span>
      </header>

      {network.address && (
        <div className="copy-row">
          <span className="copy-label">Validator group address</span>
          <div className="copy-value">
            <code>{network.address}</code>
            <CopyButton value={network.address} label={`${network.name} validator group address`} />
          </div>
        </div>
      )}

      <ul className="tags" aria-label="Tags">
        {network.tags.map((tag) => (
          <li key={tag}>{tag}</li>
        ))}
      </ul>

      {network.links.length > 0 && (
        <ul className="link-list">
          {network.links.map((link) => (
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
      )}

      {network.copyItems.length > 0 && (
        <div className="copy-items">
          <h3>RPC endpoints</h3>
          {network.copyItems.map((item) => (
            <div key={item.label} className="copy-row">
              <span className="copy-label">{item.label}</span>
              <div className="copy-value">
                <code>{item.value}</code>
                <CopyButton value={item.value} label={`${network.name} ${item.label}`} />
              </div>
            </div>
          ))}
        </div>
      )}

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
    </article>
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
