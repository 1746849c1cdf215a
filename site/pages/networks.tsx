import type { PageProps } from 'ssg';
import { copyWords } from '../components/copy-words.ts';
import type { Network, SiteData } from '../content.ts';
import { ExternalIcon } from '../components/icons.tsx';
import { NetworkLogo } from '../components/network-logo.tsx';
import { SoftBreaks } from '../components/soft-breaks.tsx';
import { PageHeader, Section } from '../components/ui.tsx';
import CopyButton, { type CopyWords } from '../islands/copy-button.tsx';
import { networkIn } from '../locales.ts';

const isExternal = (href: string) => /^https?:\/\//.test(href);

/** What a card says that is not its network's own: the page's words, and the copy buttons'. */
interface CardWords {
  status: Record<string, string>;
  address: string;
  addressCopy: (network: string) => string;
  tags: string;
  endpoints: string;
  newTab: string;
  copy: CopyWords;
}

function NetworkCard({ network, words }: { network: Network; words: CardWords }) {
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
          {words.status[network.status] ?? network.status}
        </span>
      </header>

      <div className="network-body">
        {network.address && (
          <CopyValue
            label={words.address}
            value={network.address}
            copyLabel={words.addressCopy(network.name)}
            words={words.copy}
          />
        )}

        <ul className="tags" aria-label={words.tags}>
          {network.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>

        {network.links.length > 0 && <NetworkLinks links={network.links} newTab={words.newTab} />}

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
          <h3>{words.endpoints}</h3>
          {network.copyItems.map((item) => (
            <CopyValue
              key={item.label}
              label={item.label}
              value={item.value}
              copyLabel={`${network.name} ${item.label}`}
              words={words.copy}
            />
          ))}
        </div>
      )}
    </article>
  );
}

function CopyValue({
  label,
  value,
  copyLabel,
  words,
}: {
  label: string;
  value: string;
  copyLabel: string;
  words: CopyWords;
}) {
  return (
    <div className="copy-row">
      <span className="copy-label">{label}</span>
      <div className="copy-value">
        <code>
          <SoftBreaks value={value} />
        </code>
        <CopyButton value={value} label={copyLabel} words={words} />
      </div>
    </div>
  );
}

function NetworkLinks({ links, newTab }: { links: Network['links']; newTab: string }) {
  return (
    <ul className="link-list">
      {links.map((link) => (
        <li key={link.href}>
          {isExternal(link.href) ? (
            <a href={link.href} target="_blank" rel="noopener noreferrer">
              {link.label}
              <ExternalIcon />
              <span className="visually-hidden">{` (${newTab})`}</span>
            </a>
          ) : (
            <a href={link.href}>{link.label}</a>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A card's links on this site (`/contact`) in the page's language; others as they are. */
function withLocalLinks(network: Network, localePath: PageProps['localePath']): Network {
  const local = (href: string) => (href.startsWith('/') ? localePath(href) : href);
  return {
    ...network,
    cta: network.cta && { ...network.cta, href: local(network.cta.href) },
    links: network.links.map((link) => ({ ...link, href: local(link.href) })),
  };
}

export function Networks({ data, locale, localePath, t }: PageProps<SiteData>) {
  const words: CardWords = {
    status: { Active: t('networks.status.Active'), Exploring: t('networks.status.Exploring') },
    address: t('networks.address'),
    addressCopy: (network) => t('networks.addressCopy', { network }),
    tags: t('networks.tags'),
    endpoints: t('networks.endpoints'),
    newTab: t('layout.newTab'),
    copy: copyWords(t),
  };
  return (
    <>
      <PageHeader eyebrow={t('networks.eyebrow')} title={t('networks.heading')} intro={t('networks.intro')} />
      <Section>
        <div className="network-list">
          {data.networks.map((network) => (
            <NetworkCard
              key={network.name}
              network={withLocalLinks(networkIn(network, locale), localePath)}
              words={words}
            />
          ))}
        </div>
      </Section>
    </>
  );
}
