// The line of a property in an object literal of the site's source (`routes[3].head` in
// `defineSite({ … })`), found by reading its tokens: comments, strings, templates and regular
// expressions are skipped whole, so a key named in a comment or a string is never taken for it.
// Followed as far as the source writes the path out; where it does not (a variable, a spread, a
// computed key), the line of the last part found is the answer.

type Token = { kind: 'name' | 'string' | 'punct' | 'other'; text: string; at: number };

/** After these a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', 'return', '=>']);

/** The end (exclusive) of a quoted string or template starting at `start`. */
function endOfQuoted(text: string, start: number): number {
  const quote = text[start];
  let depth = 0;
  for (let index = start + 1; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (quote === '`' && char === '$' && text[index + 1] === '{') depth++;
    else if (quote === '`' && char === '}' && depth > 0) depth--;
    else if (char === quote && depth === 0) return index + 1;
    else if (char === '\n' && quote !== '`') return index;
  }
  return text.length;
}

/** The end (exclusive) of a regular expression literal starting at `start`, with its flags. */
function endOfRegex(text: string, start: number): number {
  let inClass = false;
  for (let index = start + 1; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '\n') return index;
    else if (char === '/' && !inClass) {
      let end = index + 1;
      while (/[a-z]/i.test(text[end] ?? '')) end++;
      return end;
    }
  }
  return text.length;
}

function tokensOf(text: string, from: number): Token[] {
  const tokens: Token[] = [];
  let index = from;
  while (index < text.length) {
    const char = text[index]!;
    const rest = text.slice(index, index + 2);
    if (/\s/.test(char)) index++;
    else if (rest === '//') index = text.indexOf('\n', index) === -1 ? text.length : text.indexOf('\n', index);
    else if (rest === '/*')
      index = text.indexOf('*/', index + 2) === -1 ? text.length : text.indexOf('*/', index + 2) + 2;
    else if (char === '"' || char === "'" || char === '`') {
      const end = endOfQuoted(text, index);
      tokens.push({ kind: char === '`' ? 'other' : 'string', text: text.slice(index + 1, end - 1), at: index });
      index = end;
    } else if (char === '/' && (tokens.length === 0 || BEFORE_REGEX.has(tokens[tokens.length - 1]!.text))) {
      const end = endOfRegex(text, index);
      tokens.push({ kind: 'other', text: text.slice(index, end), at: index });
      index = end;
    } else if (/[A-Za-z_$\u0080-\uffff]/.test(char)) {
      const name = /^[\w$\u0080-\uffff]+/.exec(text.slice(index, index + 200))![0];
      tokens.push({ kind: 'name', text: name, at: index });
      index += name.length;
    } else if (text.startsWith('...', index) || rest === '=>') {
      const punct = rest === '=>' ? '=>' : '...';
      tokens.push({ kind: 'punct', text: punct, at: index });
      index += punct.length;
    } else {
      tokens.push({ kind: /[\w.]/.test(char) ? 'other' : 'punct', text: char, at: index });
      index++;
    }
  }
  return tokens;
}

/** For each opening bracket's token index, the index of its closing one. */
function closingOf(tokens: readonly Token[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  tokens.forEach((token, index) => {
    if (token.kind !== 'punct') return;
    if ('({['.includes(token.text)) open.push(index);
    else if (')}]'.includes(token.text) && open.length > 0) pairs.set(open.pop()!, index);
  });
  return pairs;
}

/** The first token of each member of the bracketed list opened at `open` (split at its own commas). */
function membersOf(tokens: readonly Token[], pairs: ReadonlyMap<number, number>, open: number): number[] {
  const close = pairs.get(open) ?? tokens.length;
  const members: number[] = [];
  let index = open + 1;
  while (index < close) {
    members.push(index);
    while (index < close && tokens[index]!.text !== ',') index = (pairs.get(index) ?? index) + 1;
    index++;
  }
  return members.filter((member) => member < close);
}

/**
 * The line of the property at `path` of the first object literal at or after line `fromLine`
 * (the call that declared it), as far as the source spells the path out; undefined when there is
 * no object there.
 */
export function lineOfProperty(text: string, fromLine: number, path: readonly PropertyKey[]): number | undefined {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lineStarts.push(index + 1);
  const lineOf = (offset: number) => {
    let line = 1;
    while (line < lineStarts.length && lineStarts[line]! <= offset) line++;
    return line;
  };
  const tokens = tokensOf(text, lineStarts[fromLine - 1] ?? text.length);
  const pairs = closingOf(tokens);
  let at = tokens.findIndex((token) => token.text === '{');
  if (at === -1) return undefined;
  let line = lineOf(tokens[at]!.at);
  for (const segment of path) {
    // Through a call that wraps the value (`defineRoute({ … })`) and a cast's parentheses.
    while (tokens[at]?.kind === 'name' && tokens[at + 1]?.text === '(') at += 2;
    while (tokens[at]?.text === '(') at++;
    const token = tokens[at];
    if (typeof segment === 'number') {
      if (token?.text !== '[') return line;
      const member = membersOf(tokens, pairs, at)[segment];
      if (member === undefined) return line;
      at = member;
      line = lineOf(tokens[at]!.at);
      if (tokens[member]!.text === '...') return line;
      continue;
    }
    if (token?.text !== '{') return line;
    const member = membersOf(tokens, pairs, at).find((index) => {
      const key = tokens[index]!;
      return (key.kind === 'name' || key.kind === 'string') && key.text === String(segment);
    });
    if (member === undefined) return line;
    line = lineOf(tokens[member]!.at);
    if (tokens[member + 1]?.text !== ':') return line;
    at = member + 2;
  }
  return line;
}
