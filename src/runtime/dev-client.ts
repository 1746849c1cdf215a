// Injected by `ssg dev` into every page it serves; never part of a build. Reloads the page when
// a rebuild wrote it, swaps the style sheet when only styles changed, and shows build errors.

interface BuildProblem {
  code?: string;
  /** The catalogue's title for the code: what went wrong, in general. */
  title?: string;
  where?: string;
  message: string;
  hint?: string;
}

const script = document.querySelector<HTMLScriptElement>('script[data-ssg-dev]');
const pagePath = script?.dataset.page ?? location.pathname;
const OVERLAY_ID = 'ssg-dev-overlay';

function showOverlay(problems: BuildProblem[]): void {
  hideOverlay();
  const host = document.createElement('div');
  host.id = OVERLAY_ID;
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = `
    .backdrop { position: fixed; inset: 0; z-index: 2147483647; background: rgb(10 14 20 / 85%);
      display: flex; align-items: flex-start; justify-content: center; padding: 6vh 1rem; overflow: auto;
      font: 14px/1.5 ui-monospace, Menlo, Consolas, monospace; color: #f3f4f6; }
    .panel { max-width: 60rem; width: 100%; background: #1c2330; border-top: 4px solid #f87171;
      border-radius: 8px; padding: 1.25rem 1.5rem; box-shadow: 0 10px 40px rgb(0 0 0 / 50%); }
    h1 { margin: 0 0 1rem; font-size: 16px; color: #fca5a5; }
    .problem + .problem { margin-top: 1rem; padding-top: 1rem; border-top: 1px solid #334155; }
    .where { color: #93c5fd; } .title { font-weight: bold; } pre { margin: 0.25rem 0; white-space: pre-wrap; }
    .hint { color: #a7f3d0; } .note { margin-top: 1rem; color: #94a3b8; }`;
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.setAttribute('role', 'alert');
  const title = document.createElement('h1');
  title.textContent = 'Build failed';
  panel.append(title);
  for (const problem of problems) {
    const item = document.createElement('div');
    item.className = 'problem';
    const where = document.createElement('div');
    where.className = 'where';
    where.textContent = [problem.code && `[${problem.code}]`, problem.where].filter(Boolean).join(' ');
    item.append(where);
    if (problem.title) {
      const general = document.createElement('div');
      general.className = 'title';
      general.textContent = problem.title;
      item.append(general);
    }
    const message = document.createElement('pre');
    message.textContent = problem.message;
    item.append(message);
    if (problem.hint) {
      const hint = document.createElement('div');
      hint.className = 'hint';
      hint.textContent = `hint: ${problem.hint}`;
      item.append(hint);
    }
    panel.append(item);
  }
  const note = document.createElement('div');
  note.className = 'note';
  note.textContent = 'Fix the file and save: the page reloads by itself.';
  panel.append(note);
  const backdrop = document.createElement('div');
  backdrop.className = 'backdrop';
  backdrop.append(panel);
  root.append(style, backdrop);
  document.body.append(host);
}

function hideOverlay(): boolean {
  const overlay = document.getElementById(OVERLAY_ID);
  overlay?.remove();
  return Boolean(overlay);
}

const events = new EventSource('/__ssg/events');
events.addEventListener('hello', (event) => {
  const { generation } = JSON.parse((event as MessageEvent<string>).data) as { generation: number };
  // Served before a rebuild whose event came before this stream opened: reload to see it.
  if (script?.dataset.generation !== undefined && Number(script.dataset.generation) !== generation) location.reload();
});
events.addEventListener('reload', (event) => {
  const { all, pages } = JSON.parse((event as MessageEvent<string>).data) as { all: boolean; pages: string[] };
  const hadOverlay = hideOverlay();
  if (all || hadOverlay || pages.includes(pagePath)) location.reload();
});
events.addEventListener('style', (event) => {
  const { from, to } = JSON.parse((event as MessageEvent<string>).data) as { from?: string; to?: string };
  hideOverlay();
  if (!from || !to) return location.reload();
  const link = document.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${CSS.escape(from)}"]`);
  if (link) return void (link.href = to);
  // A small sheet is inline in the page: put the new text in the same element.
  const inline = document.querySelector<HTMLStyleElement>(`style[data-ssg-style="${CSS.escape(from)}"]`);
  if (!inline) return location.reload();
  fetch(to)
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error(`HTTP ${response.status}`))))
    .then((text) => {
      inline.textContent = text;
      inline.dataset.ssgStyle = to;
    })
    .catch(() => location.reload());
});
events.addEventListener('build-error', (event) => {
  showOverlay(JSON.parse((event as MessageEvent<string>).data) as BuildProblem[]);
});
