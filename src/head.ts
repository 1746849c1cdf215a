import type { Head } from './site-definition.ts';
import { escapeHtml } from './template.ts';

export interface HeadInput {
  head: Head;
  /** Absolute URL of the page, or undefined for pages that must not be indexed (404). */
  canonicalUrl?: string;
  styles: readonly string[];
  /** The island loader, for pages that have islands. */
  script?: string;
}

/** The tags the generator puts where the shell says <!--ssg:head-->. */
export function renderHead({ head, canonicalUrl, styles, script }: HeadInput): string {
  const tags = [`<title>${escapeHtml(head.title)}</title>`];
  if (head.description) tags.push(`<meta name="description" content="${escapeHtml(head.description)}">`);
  if (canonicalUrl) tags.push(`<link rel="canonical" href="${escapeHtml(canonicalUrl)}">`);
  else tags.push('<meta name="robots" content="noindex">');
  for (const href of styles) tags.push(`<link rel="stylesheet" href="${escapeHtml(href)}">`);
  if (script) tags.push(`<script type="module" src="${escapeHtml(script)}"></script>`);
  return tags.join('\n');
}
