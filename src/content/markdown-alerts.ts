// GitHub's alerts: a quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]`
// or `[!CAUTION]` becomes a callout, marked up as GitHub marks it (`markdown-alert-note`, a title
// paragraph), with `role="note"` so a screen reader announces it as such. Runs after sanitising:
// the markup is the generator's own, and carries classes only.
import type { VFile } from 'vfile';
import { wordsOf } from './article-words.ts';
import type { Element, Root, RootContent } from 'hast';
import { walkTree } from '../base/trees.ts';

/** The kinds of alert; their titles are words of the article's language (article-words.ts). */
type AlertKind = 'note' | 'tip' | 'important' | 'warning' | 'caution';
/** The marker alone on the quote's first line, as GitHub requires it. */
const MARKER = /^\[!(note|tip|important|warning|caution)\][ \t]*(?:\r?\n|$)/i;

/** The alert a quote is, with the marker taken out of its first paragraph; undefined for a plain quote. */
function alertOf(quote: Element): AlertKind | undefined {
  const first = quote.children.find((child): child is Element => child.type === 'element');
  if (first?.tagName !== 'p') return undefined;
  const text = first.children[0];
  if (text?.type !== 'text') return undefined;
  const match = MARKER.exec(text.value);
  if (!match) return undefined;
  // A marker with text after it on the same line is a plain quote, as on GitHub.
  if (!match[0].includes('\n') && match[0].length === text.value.length && first.children.length > 1) {
    const next = first.children[1];
    if (!(next?.type === 'element' && next.tagName === 'br')) return undefined;
  }
  text.value = text.value.slice(match[0].length);
  if (text.value === '') first.children.shift();
  if (first.children[0]?.type === 'element' && first.children[0].tagName === 'br') first.children.shift();
  if (first.children.every((child) => child.type === 'text' && child.value.trim() === ''))
    quote.children.splice(quote.children.indexOf(first), 1);
  return match[1]!.toLowerCase() as AlertKind;
}

export function rehypeAlerts() {
  return (tree: Root, file: VFile) => {
    const words = wordsOf(file);
    // The alert replaces the quote in its parent; the walk goes on into the alert (an alert may hold another).
    walkTree<RootContent>(tree, (child, parent, index) => {
      const kind = child.type === 'element' && child.tagName === 'blockquote' ? alertOf(child) : undefined;
      if (!kind || child.type !== 'element') return;
      const title: Element = {
        type: 'element',
        tagName: 'p',
        properties: { className: ['markdown-alert-title'] },
        children: [{ type: 'text', value: words[kind] }],
      };
      parent.children[index] = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['markdown-alert', `markdown-alert-${kind}`], role: 'note' },
        children: [{ type: 'text', value: '\n' }, title, ...child.children],
        position: child.position,
      };
    });
  };
}
