import type { ReactNode } from 'react';
import { ArrowIcon } from './icons.tsx';

export function PageHeader({ eyebrow, title, intro }: { eyebrow?: string; title: string; intro?: ReactNode }) {
  return (
    <header className="page-header">
      <div className="container">
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1>{title}</h1>
        {intro && <p className="lead">{intro}</p>}
      </div>
    </header>
  );
}

export function Section({
  id,
  eyebrow,
  title,
  intro,
  children,
  tone,
}: {
  id?: string;
  /** The small label above the heading, styled the same on every page. */
  eyebrow?: string;
  title?: string;
  intro?: ReactNode;
  children: ReactNode;
  tone?: 'muted';
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section
      id={id}
      className={`section${tone ? ` section-${tone}` : ''}`}
      aria-labelledby={title ? headingId : undefined}
    >
      <div className="container">
        {title && (
          <div className="section-heading">
            {eyebrow && <p className="eyebrow">{eyebrow}</p>}
            <h2 id={headingId}>{title}</h2>
            {intro && <p className="lead">{intro}</p>}
          </div>
        )}
        {children}
      </div>
    </section>
  );
}

export function ArrowLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a className="arrow-link" href={href}>
      {children}
      <ArrowIcon />
    </a>
  );
}

export function Card({
  title,
  children,
  icon,
  level = 3,
}: {
  title: string;
  children: ReactNode;
  icon?: ReactNode;
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <article className="card">
      {icon && <div className="card-icon">{icon}</div>}
      <Heading className="card-title">{title}</Heading>
      {children}
    </article>
  );
}
