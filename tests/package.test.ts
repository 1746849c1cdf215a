// ssg as a package another site installs: packed as `npm run package` packs it, installed into an
// empty folder offline (tests/helpers/packed-install.ts), and used there through its own `ssg`:
// init (with the project's scripts), `npm run build`, `npm run typecheck`, dev (one edit, one
// reload), preview.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DevProcess } from './helpers/dev-process.ts';
import { installPacked, packSsg, PEER_CONFLICT } from './helpers/packed-install.ts';
import { repoRoot } from './helpers/project.ts';

const run = promisify(execFile);
/** `npm run --silent <script>` as a newcomer types it in `cwd` (npm finds the project's package.json above it). */
const npmRun = (script: string, cwd: string, env: Record<string, string> = {}) =>
  run('npm', ['run', '--silent', script], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', ...env },
  });

/** Starts `ssg <args>` from the installed package and waits for its first line matching `ready`. */
function start(
  bin: string,
  args: string[],
  cwd: string,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`ssg ${args.join(' ')} did not start:\n${output}`)), 60_000);
    const look = (chunk: Buffer) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: () => output });
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ssg ${args.join(' ')} exited (${code}):\n${output}`));
    });
  });
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('ssg installed from its packed tarball', () => {
  let scratch: string;
  let project: string;
  let bin: string;
  let site: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'ssg-package-'));
    // lib/ is made by `prepare` (and kept current by the suite's global setup): packed as it is,
    // with the manifest `npm run package` publishes.
    const { tarball, names, manifest } = await packSsg(scratch);
    expect(names).toContain('lib/cli.js');
    expect(names).toContain('starter/site/index.tsx');
    // The guides an error's hint names (docs/reference/define-site.md, say) come with it.
    expect(names).toContain('docs/reference/define-site.md');
    // What only the company's site and the repository use is not shipped.
    expect(names.filter((name) => /^(site|content|templates|tests|functions|patches)\//.test(name))).toEqual([]);
    // What only the repository uses stays out of what a site installs.
    for (const key of ['private', 'scripts', 'devDependencies', 'overrides', 'siteDependencies'])
      expect(manifest, key).not.toHaveProperty(key);
    for (const name of ['decap-cms', 'decap-server', 'satori']) expect(manifest.dependencies).not.toHaveProperty(name);
    project = path.join(scratch, 'project');
    const installed = await installPacked(project, tarball, manifest);
    // No peer-dependency conflict in what a site without the editor installs.
    expect(installed.stderr).not.toMatch(PEER_CONFLICT);
    bin = path.join(project, 'node_modules', '.bin', 'ssg');
    site = path.join(project, 'my-site');
  }, 240_000);

  afterAll(async () => {
    await Promise.all(children.map(stop));
    await rm(scratch, { recursive: true, force: true });
  });

  it('installs without patching a dependency or compiling at start, and names its entry points in exports', async () => {
    const installed = path.join(project, 'node_modules', 'ssg');
    expect(existsSync(path.join(installed, 'lib', 'cli.js'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules', 'patch-package'))).toBe(false);
    // better-sqlite3 is an optional peer: only `ssg serve` with a SQLite inbox needs it.
    expect(existsSync(path.join(project, 'node_modules', 'better-sqlite3'))).toBe(false);
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const a = await import('ssg'); const b = await import('ssg/server'); console.log(typeof a.defineSite, typeof a.island, typeof b.defineApiRoute, typeof b.pagesFunction)",
      ],
      { cwd: project },
    );
    expect(stdout.trim()).toBe('function function function function');
    const version = await run(process.execPath, [bin, '--version', '--verbose'], { cwd: project });
    expect(version.stdout.trim()).toBe('0.1.0');
    // Nothing written into the installed package: it runs lib/ as installed.
    expect(version.stderr).toBe('');
    expect(readdirSync(installed).sort()).toEqual(
      ['README.md', 'bin', 'docs', 'lib', 'package.json', 'src', 'starter', 'tsconfig.json']
        .filter((name) => existsSync(path.join(installed, name)))
        .sort(),
    );
    expect(existsSync(path.join(installed, '.cache'))).toBe(false);
  });

  it('init writes a site and the scripts that run it, prints the next two commands, and refuses a folder that is not empty', async () => {
    const result = await run(process.execPath, [bin, 'init', 'my-site'], { cwd: project });
    expect(result.stdout).toMatch(
      /^Created a site in my-site \(\d+ files\)\.\nAdded the scripts "build", "dev", "preview", "typecheck" to package\.json\.\nAdded "allowScripts" for "esbuild", "sharp" to package\.json\.\nWrote \.gitignore\.\nNext:\n {2}cd my-site\n {2}npm run dev\nTo type-check it: npm install -D typescript @types\/react, then npm run typecheck\.\n$/,
    );
    // The project's package.json as npm wrote it, with the scripts added.
    const manifest = JSON.parse(readFileSync(path.join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toEqual({
      name: 'installed-ssg',
      private: true,
      dependencies: { ssg: expect.stringMatching(/^file:/) },
      scripts: {
        build: 'ssg -C my-site build',
        dev: 'ssg -C my-site dev',
        preview: 'ssg -C my-site preview',
        typecheck: 'tsc -p my-site',
      },
      allowScripts: { esbuild: true, sharp: true },
    });
    // What the site needs of those the repository allows (better-sqlite3 and workerd are its own).
    const own = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      allowScripts: Record<string, boolean>;
    };
    for (const name of Object.keys(manifest.allowScripts as object)) expect(own.allowScripts[name]).toBe(true);
    expect(readFileSync(path.join(project, '.gitignore'), 'utf8')).toBe('node_modules/\n');
    for (const file of [
      'site/index.tsx',
      'site/islands/counter.tsx',
      'content/news/hello-world.md',
      'templates/document.html',
      'README.md',
      '.gitignore',
    ]) {
      expect(existsSync(path.join(site, file)), file).toBe(true);
    }
    expect(readFileSync(path.join(site, 'README.md'), 'utf8').trimEnd().split('\n')).toHaveLength(3);

    const before = readFileSync(path.join(site, 'site', 'index.tsx'), 'utf8');
    const again = await run(process.execPath, [bin, 'init', 'my-site'], { cwd: project }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('[InitFolderNotEmpty]');
    expect(readFileSync(path.join(site, 'site', 'index.tsx'), 'utf8')).toBe(before);
    expect(readdirSync(project).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  it('the site it wrote type-checks under tsc --strict against the installed types, with no cast', async () => {
    const source = readFileSync(path.join(site, 'site', 'index.tsx'), 'utf8');
    expect(source).not.toMatch(/\bas [A-Z]/);
    expect(readFileSync(path.join(site, 'tsconfig.json'), 'utf8')).toContain('"strict": true');
    // `npm run typecheck`, with the repository's TypeScript on PATH in place of `npm install -D typescript`.
    const result = await npmRun('typecheck', site, {
      PATH: [path.join(repoRoot, 'node_modules', '.bin'), process.env.PATH].join(path.delimiter),
    }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('builds the site it wrote, with an MDX article that imports a component and an island', async () => {
    // As docs/mdx.md shows a new user: a page bundle with its component beside it.
    await mkdir(path.join(site, 'content', 'news', 'counted'), { recursive: true });
    await writeFile(
      path.join(site, 'content', 'news', 'counted', 'note.tsx'),
      'export default function Note({ children }: { children?: React.ReactNode }) {\n  return <p className="note">{children}</p>;\n}\n',
    );
    await writeFile(
      path.join(site, 'content', 'news', 'counted', 'index.mdx'),
      [
        '---',
        'title: Counted',
        'date: "2024-03-01"',
        '---',
        "import Note from './note.tsx';",
        "import Counter from '../../../site/islands/counter.tsx';",
        '',
        '<Note>From a component.</Note>',
        '',
        '<Counter start={5} />',
        '',
      ].join('\n'),
    );
    // As a newcomer builds it: the project's script, from the site's folder.
    const result = await npmRun('build', site);
    const counted = readFileSync(path.join(site, 'dist', 'news', 'counted.html'), 'utf8');
    expect(counted).toContain('<p class="note">From a component.</p>');
    expect(counted).toMatch(/<ssg-island data-island="counter" data-hydrate="visible"[^>]*data-uid="m[a-z]{8}0">/);
    expect(result.stdout).toContain('pages');
    const home = readFileSync(path.join(site, 'dist', 'index.html'), 'utf8');
    expect(home).toContain('<h1>Welcome</h1>');
    expect(home).toContain('href="/news/hello-world"');
    expect(home).toMatch(/<ssg-island[^>]*counter/);
    const article = readFileSync(path.join(site, 'dist', 'news', 'hello-world.html'), 'utf8');
    expect(article).toContain('<h1>Hello, world</h1>');
    expect(readdirSync(path.join(site, 'dist', 'assets')).some((name) => name.endsWith('.js'))).toBe(true);
  });

  it('adds a second collection with a schema, typed into its pages, and a redirect, as the docs show', async () => {
    // As docs/collections.md and the README's tour show a new user.
    await mkdir(path.join(site, 'content', 'jobs'), { recursive: true });
    await writeFile(
      path.join(site, 'content', 'jobs', 'engineer.md'),
      '---\ntitle: Engineer\ndate: "2024-04-01"\nlocation: Vienna\n---\nJoin us.\n',
    );
    const index = path.join(site, 'site', 'index.tsx');
    const source = readFileSync(index, 'utf8');
    await writeFile(
      index,
      source
        .replace(
          "import { defineRoute, defineSite, type Article, type PageProps } from 'ssg';",
          [
            "import { defineCollection, defineRoute, defineSite, type Article, type CollectionsOf, type PageProps } from 'ssg';",
            "import { z } from 'zod';",
            '',
            'const collections = {',
            '  news: defineCollection({}),',
            '  jobs: defineCollection({ schema: z.object({ location: z.string() }) }),',
            '};',
            'type Collections = CollectionsOf<typeof collections>;',
          ].join('\n'),
        )
        .replace(
          'export default defineSite({',
          [
            'export default defineSite<Record<string, unknown>, Collections>({',
            '  collections,',
            "  redirects: { '/blog/hello-world': '/news/hello-world' },",
          ].join('\n'),
        )
        .replace(
          "    { path: '/404',",
          [
            '    defineRoute<Record<string, unknown>, { job: Collections["jobs"][number] }, Collections>({',
            "      path: '/jobs/:slug',",
            '      entries: ({ collections }) => collections.jobs.map((job) => ({ params: { slug: job.slug }, props: { job } })),',
            '      page: ({ entry }) => <h1>{entry.job.title} in {entry.job.data.location.toUpperCase()}</h1>,',
            '      head: ({ entry }) => ({ title: entry.job.title }),',
            '    }),',
            "    { path: '/404',",
          ].join('\n'),
        ),
    );
    const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const checked = await run(process.execPath, [tsc, '--noEmit', '--strict', '-p', 'tsconfig.json'], {
      cwd: site,
    }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (error: { code: number; stdout: string }) => error,
    );
    expect(checked.stdout).toBe('');
    expect(checked.code).toBe(0);
    const result = await run(process.execPath, [bin, 'build'], { cwd: site });
    expect(result.stdout).toContain('pages');
    expect(readFileSync(path.join(site, 'dist', 'jobs', 'engineer.html'), 'utf8')).toContain(
      '<h1>Engineer<!-- --> in <!-- -->VIENNA</h1>',
    );
    expect(readFileSync(path.join(site, 'dist', '_redirects'), 'utf8')).toMatch(
      /^\/blog\/hello-world\s+\/news\/hello-world\s+301$/m,
    );
  });

  it('dev serves it and, after one edit, sends one reload and serves the edit', async () => {
    const dev = await DevProcess.start(site, [], bin);
    children.push(dev.child);
    expect(await (await fetch(`${dev.url}/news/hello-world`)).text()).toContain('<h1>Hello, world</h1>');
    const events = await dev.events();
    await events.settle();
    const file = path.join(site, 'content', 'news', 'hello-world.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('title: Hello, world', 'title: Hello again'));
    await events.next('reload', undefined, 20_000);
    events.close();
    expect(await (await fetch(`${dev.url}/news/hello-world`)).text()).toContain('<h1>Hello again</h1>');
    await stop(dev.child);
  });

  it('preview serves the build', async () => {
    const preview = await start(bin, ['preview', '--port', '0'], site, /Serving dist at (http:\/\/[^/\s]+)\//);
    children.push(preview.child);
    const response = await fetch(`${preview.match[1]}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<h1>Welcome</h1>');
    const missing = await fetch(`${preview.match[1]}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page not found');
    await stop(preview.child);
  });

  it('serve and inbox, which need the optional better-sqlite3, say how to install it', async () => {
    for (const args of [['serve'], ['inbox', 'list']]) {
      const result = await run(process.execPath, [bin, ...args], {
        cwd: site,
        env: { ...process.env, NO_COLOR: '1' },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain('[SqliteMissing]');
      expect(result.stderr).toContain('npm install better-sqlite3');
      expect(result.stderr).not.toContain('Unexpected internal error');
    }
  });

  it('a second site is run by the commands init prints and its README gives: npx ssg in its folder', async () => {
    const env = { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_offline: 'true' };
    const other = path.join(project, 'other-site');
    const init = await run('npx', ['ssg', 'init', 'other-site'], { cwd: project, env });
    // The scripts are the first site's: init leaves them and prints npx ssg.
    expect(init.stdout).toContain('\nNext:\n  cd other-site\n  npx ssg dev\n');
    const readme = readFileSync(path.join(other, 'README.md'), 'utf8');
    expect(readme).toContain('Run in this folder, `npx ssg dev` serves it');
    expect(readme).toContain('`npx ssg build` writes it to dist/');
    const first = statSync(path.join(site, 'dist', 'index.html')).mtimeMs;
    await run('npx', ['ssg', 'build'], { cwd: other, env });
    expect(readFileSync(path.join(other, 'dist', 'index.html'), 'utf8')).toContain('<h1>Welcome</h1>');
    expect(statSync(path.join(site, 'dist', 'index.html')).mtimeMs).toBe(first);
  });

  it('builds a site that turns on no optional feature with none of their packages installed', async () => {
    const modules = path.join(project, 'node_modules');
    // The editor's packages and the share cards' renderer are the site's to install: never pulled in.
    for (const name of ['decap-cms', 'decap-server', 'satori'])
      expect(existsSync(path.join(modules, name)), name).toBe(false);
    // Search's and MDX's packages come with ssg but load only for a site that uses them: removed here
    // (from the project every test above used: this one comes last).
    for (const name of ['pagefind', '@pagefind', '@mdx-js']) {
      expect(existsSync(path.join(modules, name)), name).toBe(true);
      await rm(path.join(modules, name), { recursive: true });
    }
    const plain = path.join(project, 'plain-site');
    await run(process.execPath, [bin, 'init', 'plain-site'], { cwd: project });
    const result = await run(process.execPath, [bin, 'build'], { cwd: plain });
    expect(result.stdout).toContain('pages');
    expect(readFileSync(path.join(plain, 'dist', 'news', 'hello-world.html'), 'utf8')).toContain(
      '<h1>Hello, world</h1>',
    );
    expect(existsSync(path.join(plain, 'dist', 'pagefind'))).toBe(false);
    // Turned on without its package, a feature names what is missing.
    await writeFile(
      path.join(plain, 'content', 'news', 'note.mdx'),
      '---\ntitle: Note\ndate: "2024-03-01"\n---\nHi.\n',
    );
    const failed = await run(process.execPath, [bin, 'build'], {
      cwd: plain,
      env: { ...process.env, NO_COLOR: '1' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('[MdxCompilerMissing]');
    expect(failed.stderr).toContain('content/news/note.mdx');
    expect(failed.stderr).not.toContain('Unexpected internal error');
  });
});
