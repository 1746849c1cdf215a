// Astro as a peer in the build benchmark: Astro 5 with its React integration, installed once into a
// folder of its own outside the project (never among its dependencies), and a small Astro site
// made of the same generated posts: a content collection (the glob loader), each post rendered as
// a page through a layout in React rendered on the server only, and a list of every post; Shiki
// highlights the code blocks, as Astro does by default. No share cards and no search: Astro's
// plain build of the same Markdown, the figure a team choosing between the two would compare.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';

/** The versions measured: the newest Astro 5 and its React integration, with React 19. */
const PACKAGES = ['astro@5', '@astrojs/react@5', 'react@19', 'react-dom@19'];

/** Where the peer is installed: a folder of its own, kept between runs (an install takes about half a minute). */
const PEER_DIR = process.env.SSG_BENCH_ASTRO_DIR ?? path.join(homedir(), '.cache', 'ssg-bench', 'astro-5');

/**
 * The folder of the installed peer (node_modules inside), installed from the npm registry when
 * not there yet; or why it cannot be had (no registry: the benchmark goes on without the peer).
 */
export function astroPeer(): { dir: string } | { missing: string } {
  const marker = path.join(PEER_DIR, 'node_modules', 'astro', 'package.json');
  if (existsSync(marker)) return { dir: PEER_DIR };
  try {
    mkdirSync(PEER_DIR, { recursive: true });
    writeFileSync(path.join(PEER_DIR, 'package.json'), '{ "private": true, "type": "module" }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...PACKAGES], {
      cwd: PEER_DIR,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return { dir: PEER_DIR };
  } catch (error) {
    return {
      missing: `installing ${PACKAGES.join(' ')} into ${PEER_DIR} failed: ${(error as Error).message.split('\n')[0]}`,
    };
  }
}

/** The installed version of Astro, as the benchmark prints it. */
export const astroVersion = (peer: string): string =>
  (
    JSON.parse(
      execFileSync('node', ['-p', 'JSON.stringify(require("astro/package.json"))'], { cwd: peer, encoding: 'utf8' }),
    ) as {
      version: string;
    }
  ).version;

const FILES: Record<string, string> = {
  'astro.config.mjs': `import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
export default defineConfig({ integrations: [react()], site: 'https://example.org', cacheDir: './.astro-cache' });
`,
  'src/content.config.ts': `import { defineCollection, z } from 'astro:content';
import { glob } from 'astro/loaders';
const news = defineCollection({
  loader: glob({ pattern: 'bench-article-*.md', base: process.env.BENCH_POSTS }),
  schema: z.object({ title: z.string(), date: z.coerce.date(), excerpt: z.string(), tags: z.array(z.string()).default([]) }),
});
export const collections = { news };
`,
  'src/components/Layout.tsx': `import type { ReactNode } from 'react';
export default function Layout({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page">
      <header><a href="/">Home</a> <a href="/news/">News</a></header>
      <main><h1>{title}</h1>{children}</main>
      <footer>Footer</footer>
    </div>
  );
}
`,
  'src/pages/news/[slug].astro': `---
import { getCollection, render } from 'astro:content';
import Layout from '../../components/Layout.tsx';
export async function getStaticPaths() {
  const posts = await getCollection('news');
  return posts.map((post) => ({ params: { slug: post.id }, props: { post } }));
}
const { post } = Astro.props;
const { Content } = await render(post);
---
<html lang="en"><head><meta charset="utf-8" /><title>{post.data.title}</title></head>
<body><Layout title={post.data.title}><p>{post.data.excerpt}</p><Content /></Layout></body></html>
`,
  'src/pages/news/index.astro': `---
import { getCollection } from 'astro:content';
import Layout from '../../components/Layout.tsx';
const posts = (await getCollection('news')).sort((a, b) => b.data.date.valueOf() - a.data.date.valueOf());
---
<html lang="en"><head><meta charset="utf-8" /><title>News</title></head>
<body><Layout title="News"><ul>{posts.map((post) => <li><a href={\`/news/\${post.id}/\`}>{post.data.title}</a></li>)}</ul></Layout></body></html>
`,
};

/**
 * A fresh Astro site (no cache, no dist) over the posts in `posts` (the generated articles), using
 * the installed peer's packages; `command` and `args` build it cold, `dispose` removes it.
 */
export function astroSite(peer: string, posts: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ssg-bench-astro-'));
  for (const [name, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  // Its dependencies as installed: Astro tells its own packages from the site's by this file.
  copyFileSync(path.join(peer, 'package.json'), path.join(dir, 'package.json'));
  symlinkSync(path.join(peer, 'node_modules'), path.join(dir, 'node_modules'));
  return {
    dir,
    command: process.execPath,
    args: [path.join(peer, 'node_modules', 'astro', 'astro.js'), 'build', '--silent'],
    env: { ...process.env, BENCH_POSTS: posts, ASTRO_TELEMETRY_DISABLED: '1' },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
