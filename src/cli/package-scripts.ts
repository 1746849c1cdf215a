// Scripts (and an `allowScripts`) added to a package.json as text: the new entries are inserted where
// they belong and every other byte stays as the file had it (its indent, line ends, key order, inline
// arrays), as a person adding them by hand would. An existing script or allowScripts is never replaced.

/** A word as a POSIX shell (npm's script shell) reads it back: quoted unless plain; never read as an option. */
export function shellWord(word: string): string {
  const safe = word.startsWith('-') ? `./${word}` : word;
  return /^[\w./-]+$/.test(safe) ? safe : `'${safe.replaceAll("'", "'\\''")}'`;
}

export type ScriptsMerge =
  /** `text` is the file with the scripts added, or undefined when there was nothing to add. */
  | { ok: true; text: string | undefined; added: string[]; kept: string[] }
  /** Why the file cannot take scripts (it is left as it is). */
  | { ok: false; reason: string };

/** A package.json's object, and where it starts (after a byte-order mark), or why it is none. */
function readManifest(
  text: string,
): { ok: true; manifest: Record<string, unknown>; start: number } | { ok: false; reason: string } {
  const start = text.startsWith('\uFEFF') ? 1 : 0;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text.slice(start));
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` };
  }
  return isRecord(manifest) ? { ok: true, manifest, start } : { ok: false, reason: 'not a JSON object' };
}

/**
 * `text` (a package.json) with each of `scripts` that it lacks added to its `scripts` object (made
 * when there is none). `kept` names those it has with another command: they stay as they are.
 */
export function mergeScripts(text: string, scripts: Readonly<Record<string, string>>): ScriptsMerge {
  const read = readManifest(text);
  if (!read.ok) return read;
  const { manifest, start } = read;
  const present = Object.hasOwn(manifest, 'scripts') ? manifest.scripts : {};
  if (!isRecord(present)) return { ok: false, reason: 'its "scripts" is not an object' };
  const names = Object.keys(scripts);
  const added = names.filter((name) => !Object.hasOwn(present, name));
  const kept = names.filter((name) => Object.hasOwn(present, name) && present[name] !== scripts[name]);
  if (added.length === 0) return { ok: true, text: undefined, added, kept };

  const root = objectAt(text, skipSpace(text, start));
  const layout = layoutOf(text, root);
  const entries = added.map((name) => JSON.stringify(name) + layout.colon + JSON.stringify(scripts[name]));
  // JSON.parse takes the last of duplicate keys: so does this.
  const holder = root.members.filter((member) => member.key === 'scripts').at(-1);
  if (holder) {
    const object = objectAt(text, holder.valueStart);
    const last = object.members.at(-1);
    if (last) {
      const separator = separatorOf(text, object);
      const colon = text.slice(object.members[0]!.keyEnd, object.members[0]!.valueStart);
      const inserted = added.map((name) => separator + JSON.stringify(name) + colon + JSON.stringify(scripts[name]));
      return { ok: true, text: splice(text, last.valueEnd, last.valueEnd, inserted.join('')), added, kept };
    }
    const inner = innerOf(entries, indentOf(text, holder.keyStart), layout);
    return { ok: true, text: splice(text, object.open + 1, object.close, inner), added, kept };
  }
  return { ok: true, text: withMember(text, root, layout, 'scripts', entries), added, kept };
}

export type AllowScriptsMerge =
  /** `text` is the file with `allowScripts` added, or undefined when it has one (left as it is). */
  { ok: true; text: string | undefined; present?: Record<string, unknown> } | { ok: false; reason: string };

/**
 * `text` (a package.json) with an `allowScripts` object of `allow` at the end of its top-level
 * object, unless it has an `allowScripts` already: then `present` is that, which stays as it is.
 */
export function addAllowScripts(text: string, allow: Readonly<Record<string, boolean>>): AllowScriptsMerge {
  const read = readManifest(text);
  if (!read.ok) return read;
  const { manifest, start } = read;
  if (Object.hasOwn(manifest, 'allowScripts'))
    return { ok: true, text: undefined, present: isRecord(manifest.allowScripts) ? manifest.allowScripts : {} };
  const root = objectAt(text, skipSpace(text, start));
  const layout = layoutOf(text, root);
  const entries = Object.entries(allow).map(([name, value]) => JSON.stringify(name) + layout.colon + String(value));
  return { ok: true, text: withMember(text, root, layout, 'allowScripts', entries) };
}

/**
 * Whether an `allowScripts` lets `name`'s install scripts run, as npm reads it: by a name-only key
 * or one pinned to a version (`name@1.2.3`) set to true, and no key for it set to false.
 */
export function allowsScripts(allowScripts: Readonly<Record<string, unknown>>, name: string): boolean {
  const keys = Object.keys(allowScripts).filter((key) => key === name || key.startsWith(`${name}@`));
  return keys.some((key) => allowScripts[key] === true) && !keys.some((key) => allowScripts[key] === false);
}

/** `text` with the member `key` (an object of `entries`) added at the end of its top-level object, `root`. */
function withMember(text: string, root: ObjectSpan, layout: Layout, key: string, entries: string[]): string {
  const member = `${JSON.stringify(key)}${layout.colon}{${innerOf(entries, layout.memberIndent, layout)}}`;
  const last = root.members.at(-1);
  if (last) return splice(text, last.valueEnd, last.valueEnd, separatorOf(text, root) + member);
  return splice(text, root.open + 1, root.close, innerOf([member], indentOf(text, root.open), layout));
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

interface Member {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

/** How the file lays out an object's members, read from its top-level object. */
interface Layout {
  multiline: boolean;
  eol: string;
  /** One level of indent. */
  unit: string;
  /** The indent of the top-level members. */
  memberIndent: string;
  /** What stands between a key and its value (`": "`, `":"`). */
  colon: string;
}

function layoutOf(text: string, root: ObjectSpan): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = root.members[0];
  // An empty object: npm's own layout.
  if (!first) return { multiline: true, eol, unit: '  ', memberIndent: `${indentOf(text, root.open)}  `, colon: ': ' };
  const lead = text.slice(root.open + 1, first.keyStart);
  const multiline = lead.includes('\n');
  const memberIndent = multiline ? lead.slice(lead.lastIndexOf('\n') + 1) : '';
  const outer = indentOf(text, root.open);
  const unit =
    memberIndent.startsWith(outer) && memberIndent.length > outer.length ? memberIndent.slice(outer.length) : '  ';
  return { multiline, eol, unit, memberIndent, colon: text.slice(first.keyEnd, first.valueStart) };
}

/** The inside of an object holding `entries`, whose key stands on a line indented by `indent`. */
function innerOf(entries: string[], indent: string, layout: Layout): string {
  if (!layout.multiline) return entries.join(',');
  const inside = indent + layout.unit;
  return entries.map((entry) => layout.eol + inside + entry).join(',') + layout.eol + indent;
}

/** What stands between two members of `object` (it has one at least): as between its first two. */
function separatorOf(text: string, object: ObjectSpan): string {
  const [first, second] = object.members;
  return second ? text.slice(first!.valueEnd, second.keyStart) : `,${text.slice(object.open + 1, first!.keyStart)}`;
}

/** The spaces and tabs that start the line `at` is on. */
function indentOf(text: string, at: number): string {
  const line = text.slice(text.lastIndexOf('\n', at - 1) + 1, at);
  return /^[ \t]*/.exec(line)![0];
}

const splice = (text: string, from: number, to: number, inserted: string) =>
  text.slice(0, from) + inserted + text.slice(to);

// A reader of positions in JSON that JSON.parse has accepted already.

function objectAt(text: string, open: number): ObjectSpan {
  const members: Member[] = [];
  let at = skipSpace(text, open + 1);
  while (text[at] !== '}') {
    const keyStart = at;
    const keyEnd = skipString(text, at);
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const valueEnd = skipValue(text, valueStart);
    members.push({ key: JSON.parse(text.slice(keyStart, keyEnd)) as string, keyStart, keyEnd, valueStart, valueEnd });
    at = skipSpace(text, valueEnd);
    if (text[at] === ',') at = skipSpace(text, at + 1);
  }
  return { open, close: at, members };
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  return at;
}

function skipString(text: string, at: number): number {
  let i = at + 1;
  while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

function skipValue(text: string, at: number): number {
  const first = text[at];
  if (first === '"') return skipString(text, at);
  if (first !== '{' && first !== '[') {
    let i = at;
    while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const char = text[i];
    if (char === '"') i = skipString(text, i) - 1;
    else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth === 0) return i + 1;
  }
  return text.length;
}
