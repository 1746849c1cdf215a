import { createHash } from 'node:crypto';

/**
 * The inline script of a page whose islands all wait for the visitor: it fetches nothing until
 * the first interaction (a pointer moving over the page, a scroll, click, touch, focus or key), then imports the island loader
 * named by its `data-loader` attribute. The events it saw are handed to the loader, which
 * replays a click that reached an island before the island was live. The text never changes
 * with the site, so its CSP hash is stable from build to build.
 */
export const BOOTSTRAP_SCRIPT =
  '(function(){var s=document.currentScript,w=window,t=["pointerover","pointerdown","touchstart","keydown","focusin","click","scroll"],' +
  'b=w.__ssgBoot={events:[],stop:function(){t.forEach(function(n){removeEventListener(n,f,!0)})}},l=0;' +
  'function f(e){b.events.length<50&&b.events.push(e);l||(l=1,import(s.dataset.loader))}' +
  't.forEach(function(n){addEventListener(n,f,{capture:!0,passive:!0})})})();';

/** The CSP source that allows exactly this text as an inline script or style. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export const BOOTSTRAP_HASH = cspHash(BOOTSTRAP_SCRIPT);
