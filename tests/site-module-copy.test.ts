// The copy of the site's compiled module the helpers import (for its drawers and Markdown
// plugins): one file per code, written once, replaced when the code changes, removed at the end.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerBundle } from '../src/bundle/bundle-server.ts';
import { createSiteModuleCopies, siteMarkdownOf } from '../src/pipeline/site-markdown.ts';
import { projectAt } from '../src/project.ts';

const root = mkdtempSync(path.join(tmpdir(), 'ssg-module-copy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bundle = (code: string) =>
  ({
    module: { site: { routes: [], drawers: {} } },
    code: Buffer.from(code),
    sources: [],
    inputs: [],
  }) as unknown as ServerBundle;

describe('the site module copy for the helpers', () => {
  it('is one file per code, replaced when the code changes, and removed at the end', () => {
    const project = projectAt(root);
    const copies = createSiteModuleCopies(project.cacheDir);
    const first = siteMarkdownOf(copies, bundle('export const site = { routes: [] };'));
    const second = siteMarkdownOf(copies, bundle('export const site = { routes: [] };'));
    expect(first.drawModule).toBeDefined();
    expect(second.drawModule).toBe(first.drawModule);
    expect(existsSync(first.drawModule!)).toBe(true);
    const other = siteMarkdownOf(copies, bundle('export const site = { routes: [], other: true };'));
    expect(other.drawModule).not.toBe(first.drawModule);
    expect(existsSync(first.drawModule!)).toBe(false);
    expect(existsSync(other.drawModule!)).toBe(true);
    copies.dispose();
    expect(readdirSync(project.cacheDir).filter((name) => name.startsWith('markdown-site-'))).toEqual([]);
  });

  it('is not written for a site with neither Markdown plugins nor drawers', () => {
    const copies = createSiteModuleCopies(path.join(root, 'none'));
    const plain = {
      module: { site: { routes: [] } },
      code: Buffer.from('x'),
      sources: [],
      inputs: [],
    } as unknown as ServerBundle;
    expect(siteMarkdownOf(copies, plain).drawModule).toBeUndefined();
    expect(existsSync(path.join(root, 'none'))).toBe(false);
  });
});
