import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { island } from 'ssg';

interface NewsSearchProps {
  /** Where the build wrote the index (`defineSite({ search })`): Pagefind's API is `pagefind.js` there. */
  bundle: string;
  /** The field's label and example words: the news's unless given (the docs site shares this box). */
  label?: string;
  placeholder?: string;
  /** What a result is, one and many, in the spoken count: articles unless given. */
  noun?: { one: string; many: string };
  /** What the box says, in another language than English (the words made from `noun` otherwise). */
  words?: SearchWords;
}

/**
 * What the box says about a search: `{query}`, `{count}` and `{shown}` are filled in. `firstShown`
 * follows the count when more were found than are listed.
 */
export interface SearchWords {
  results: string;
  unavailable: string;
  none: string;
  one: string;
  many: string;
  firstShown: string;
}

/** One result as shown: the article's address, title and the words around the match. */
interface Found {
  url: string;
  title: string;
  excerpt: string;
}

/** What Pagefind's browser API gives (only what this box uses). */
interface Pagefind {
  init(): Promise<void>;
  debouncedSearch(
    query: string,
    options?: object,
    wait?: number,
  ): Promise<{
    results: Array<{ data(): Promise<{ url: string; meta: { title?: string }; excerpt: string }> }>;
  } | null>;
}

/** Results shown at most; the count announced is of all of them. */
const SHOWN = 8;

let pagefind: Promise<Pagefind> | undefined;

/** Pagefind's API, fetched on first use only: nothing of the index loads until someone searches. */
function loadPagefind(bundle: string): Promise<Pagefind> {
  pagefind ??= (import(/* @vite-ignore */ `${bundle}pagefind.js`) as Promise<Pagefind>).then(async (api) => {
    await api.init();
    return api;
  });
  return pagefind;
}

/** The excerpt Pagefind marks up (`<mark>` around the words found) as text and marks, never as HTML. */
function Excerpt({ html }: { html: string }) {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  const parts: ReactNode[] = [...body.childNodes].map((node, index) =>
    node.nodeName === 'MARK' ? <mark key={index}>{node.textContent}</mark> : node.textContent,
  );
  return <p className="news-search-excerpt">{parts}</p>;
}

const ARTICLES = { one: 'article', many: 'articles' };

/** The English words, about articles or what `noun` names. */
const englishWords = (noun = ARTICLES): SearchWords => ({
  results: 'Search results',
  unavailable: 'Search is not available right now.',
  none: `No ${noun.many} found for “{query}”.`,
  one: `1 ${noun.one} found.`,
  many: `{count} ${noun.many} found.`,
  firstShown: 'The first {shown} are listed.',
});

const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));

function statusText(
  query: string,
  state: 'idle' | 'searching' | 'done' | 'failed',
  count: number,
  words: SearchWords,
): string {
  if (state === 'failed') return words.unavailable;
  if (state !== 'done' || query.trim() === '') return '';
  if (count === 0) return fill(words.none, { query: query.trim() });
  const shown = count > SHOWN ? ` ${fill(words.firstShown, { shown: SHOWN })}` : '';
  return `${fill(count === 1 ? words.one : words.many, { count })}${shown}`;
}

function useSearch(bundle: string, query: string) {
  const [found, setFound] = useState<{ total: number; items: Found[] }>({ total: 0, items: [] });
  const [state, setState] = useState<'idle' | 'searching' | 'done' | 'failed'>('idle');
  useEffect(() => {
    if (query.trim() === '') {
      setFound({ total: 0, items: [] });
      setState('idle');
      return;
    }
    let current = true;
    setState('searching');
    loadPagefind(bundle)
      .then((api) => api.debouncedSearch(query, {}, 200))
      .then(async (search) => {
        if (!search || !current) return; // a later query took over
        const items = await Promise.all(search.results.slice(0, SHOWN).map((result) => result.data()));
        if (!current) return;
        const shown = items.map((item) => ({
          url: item.url,
          title: item.meta.title ?? item.url,
          excerpt: item.excerpt,
        }));
        setFound({ total: search.results.length, items: shown });
        setState('done');
      })
      .catch(() => current && setState('failed'));
    return () => {
      current = false;
    };
  }, [bundle, query]);
  return { ...found, state };
}

/**
 * A search box over the news: a labelled field, the number found said by a live region, results as
 * a list of links. Escape empties it; Down arrow moves from the field to the first result.
 */
function NewsSearch({
  bundle,
  label = 'Search the news',
  placeholder = 'Validator, upgrade, Celo…',
  noun,
  words = englishWords(noun),
}: NewsSearchProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [query, setQuery] = useState('');
  // Letters typed before the island was live are in the field already: search for them.
  useEffect(() => setQuery(input.current?.value ?? ''), []);
  const { total, items, state } = useSearch(bundle, query);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && query !== '') {
      event.preventDefault();
      setQuery('');
      input.current?.focus();
    } else if (event.key === 'ArrowDown' && event.target === input.current) {
      const first = list.current?.querySelector('a');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  return (
    <form role="search" className="news-search" onSubmit={(event) => event.preventDefault()} onKeyDown={onKeyDown}>
      <label htmlFor={`${id}-query`}>{label}</label>
      <input
        ref={input}
        id={`${id}-query`}
        type="search"
        name="q"
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        aria-describedby={`${id}-status`}
        aria-controls={`${id}-results`}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      <p id={`${id}-status`} className="news-search-status" role="status" aria-live="polite">
        {statusText(query, state, total, words)}
      </p>
      <ul
        ref={list}
        id={`${id}-results`}
        className="news-search-results"
        aria-label={words.results}
        // Hidden in the same render that empties the field, not one later when the search's effect runs.
        hidden={items.length === 0 || query.trim() === ''}
      >
        {items.map((item) => (
          <li key={item.url}>
            <a href={item.url}>{item.title}</a>
            <Excerpt html={item.excerpt} />
          </li>
        ))}
      </ul>
    </form>
  );
}

// Nothing is fetched (React, this code, Pagefind, the index) until the box is reached.
export default island('news-search', NewsSearch, { hydrate: 'interaction' });
