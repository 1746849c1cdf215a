// The generator's own words inside an article (its footnotes' heading and back links, the copy
// button of its code), in the article's language: English and German built in, each overridable
// by the site (`i18n.words`); another language has the English ones unless the site gives its own.
import type { Element, Root } from 'hast';
import type { VFile } from 'vfile';
import { walkTree } from '../base/trees.ts';

/** The generator's words in an article; `{n}` is a footnote's number, `{key}` the keyboard's copy shortcut. */
export interface ArticleWords {
  /** The footnotes' heading, for screen readers. */
  footnotes: string;
  /** A footnote's link back to where it is referred to: `Back to reference {n}`. */
  backToReference: string;
  /** The code block's copy button, and what it says for screen readers. */
  copy: string;
  copyCode: string;
  /** What the button says once the code is copied, and what is announced. */
  copied: string;
  codeCopied: string;
  /** What the button says when the clipboard refused (the code is then selected), and what is announced. */
  pressKey: string;
  copyFailed: string;
  /** A heading's `#` link, for screen readers: `{title}` is the heading's text. */
  sectionLink: string;
  /** The same, for a heading with no text. */
  untitledSectionLink: string;
  /** The titles of GitHub's alerts (`> [!NOTE]`). */
  note: string;
  tip: string;
  important: string;
  warning: string;
  caution: string;
}

const ENGLISH: ArticleWords = {
  footnotes: 'Footnotes',
  backToReference: 'Back to reference {n}',
  copy: 'Copy',
  copyCode: 'Copy code',
  copied: 'Copied',
  codeCopied: 'Code copied',
  pressKey: 'Press {key}',
  copyFailed: 'Copy failed: the code is selected, press {key}',
  sectionLink: 'Link to the section “{title}”',
  untitledSectionLink: 'Link to this section',
  note: 'Note',
  tip: 'Tip',
  important: 'Important',
  warning: 'Warning',
  caution: 'Caution',
};

const BUILT_IN: Readonly<Record<string, ArticleWords>> = {
  en: ENGLISH,
  de: {
    footnotes: 'Fußnoten',
    backToReference: 'Zurück zum Verweis {n}',
    copy: 'Kopieren',
    copyCode: 'Code kopieren',
    copied: 'Kopiert',
    codeCopied: 'Code kopiert',
    pressKey: '{key} drücken',
    copyFailed: 'Kopieren nicht möglich: Der Code ist markiert, {key} drücken',
    sectionLink: 'Link zum Abschnitt „{title}“',
    untitledSectionLink: 'Link zu diesem Abschnitt',
    note: 'Hinweis',
    tip: 'Tipp',
    important: 'Wichtig',
    warning: 'Warnung',
    caution: 'Vorsicht',
  },
};

/** The names of the words, for the site's overrides to be checked against. */
export const ARTICLE_WORD_KEYS = Object.keys(ENGLISH) as (keyof ArticleWords)[];

/** A locale's words: the built-in ones of its language (`de-AT` has German's), the site's own over them. */
export function articleWords(locale: string, own: Partial<ArticleWords> = {}): ArticleWords {
  const language = locale.split('-')[0]!;
  return { ...(BUILT_IN[locale] ?? BUILT_IN[language] ?? ENGLISH), ...own };
}

/** Whether an article's words are the English ones the conversion writes anyway. */
export const isEnglish = (words: ArticleWords | undefined) =>
  !words || ARTICLE_WORD_KEYS.every((key) => words[key] === ENGLISH[key]);

/** The words an article is converted with (`file.data.words`), English without. */
export const wordsOf = (file: VFile): ArticleWords => (file.data.articleWords as ArticleWords | undefined) ?? ENGLISH;

const BACK = /^Back to reference (\d+(?:-\d+)?)$/;
const SECTION = /^Link to the section “([\s\S]*)”$/;

/**
 * The footnotes' heading and back links, and the headings' `#` links, in the article's words
 * (remark-rehype and the anchors write English): run last, after sanitising.
 */
export function rehypeArticleWords() {
  return (tree: Root, file: VFile) => {
    const words = file.data.articleWords as ArticleWords | undefined;
    if (isEnglish(words)) return;
    walkTree<Element>(tree as unknown as { children: Element[] }, (node) => {
      if (node.type !== 'element') return undefined;
      const id = typeof node.properties.id === 'string' ? node.properties.id : '';
      if (node.tagName === 'h2' && id.endsWith('footnote-label') && node.children.length === 1) {
        node.children = [{ type: 'text', value: words!.footnotes }];
      }
      const label = node.properties.ariaLabel;
      const back =
        node.tagName === 'a' && node.properties.dataFootnoteBackref !== undefined && typeof label === 'string';
      const number = back ? BACK.exec(label as string)?.[1] : undefined;
      if (number) node.properties.ariaLabel = words!.backToReference.replaceAll('{n}', number);
      const anchor =
        node.tagName === 'a' &&
        Array.isArray(node.properties.className) &&
        node.properties.className.includes('heading-anchor');
      if (anchor && typeof label === 'string') {
        const title = SECTION.exec(label)?.[1];
        node.properties.ariaLabel =
          title === undefined ? words!.untitledSectionLink : words!.sectionLink.replaceAll('{title}', title);
      }
      return undefined;
    });
  };
}
