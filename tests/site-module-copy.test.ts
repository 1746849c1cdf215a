// The copy of the site's compiled module the helpers import (for its drawers and Markdown
// plugins): one file per code, shared by the runs that hold it at once (dev's warm-up of its edit
// helper and an edit's run), removed only when the last of them lets it go.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerBundle } from '../src/bundle/bundle-server.ts';
import { siteMarkdownOf } from '../src/pipeline/inputs.ts';
import { projectAt } from '../src/project.ts';

const root = mkdtempSync(path.join(tmpdir(), 'ssg-module-copy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bundle = (code: string) => ({ module: { site: { routes: [], drawers: {} } }, code: Buffer.from(code), sources: [], inputs: [] }) as unknown as ServerBundle;

describe('the site module copy for the helpers', () => {
  it('stays while any run holds it, and goes with the last; another code is another file', () => {
    const project = projectAt(root);
    const first = siteMarkdownOf(project, bundle('export const site = { routes: [] };'));
    const second = siteMarkdownOf(project, bundle('export const site = { routes: [] };'));
    expect(first.drawModule).toBeDefined();
    expect(second.drawModule).toBe(first.drawModule);
    first.dispose();
    first.dispose(); // twice: still one release
    expect(existsSync(first.drawModule!)).toBe(true);
    const other = siteMarkdownOf(project, bundle('export const site = { routes: [], other: true };'));
    expect(other.drawModule).not.toBe(first.drawModule);
    second.dispose();
    expect(existsSync(first.drawModule!)).toBe(false);
    other.dispose();
    expect(readdirSync(project.cacheDir).filter((name) => name.startsWith('markdown-site-'))).toEqual([]);
  });
});
