import { createHash } from 'node:crypto';

/**
 * The inline script of a page whose islands all wait for the visitor: it fetches nothing until the
 * first interaction, then imports the loader named by `data-loader` and hands it the events seen,
 * so a click before the island was live is replayed. Its text never changes, so its CSP hash is stable.
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
