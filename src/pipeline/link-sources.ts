// Where a link the check refused is written: in an article (the Markdown as its author wrote it)
// or in the site's own files (the layout, a page, a template, a data file). Asked only for the
// links that failed, so reading the files here costs nothing on a good build.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { articleLinkTarget, writtenLinkTargets } from '../content/article-links.ts';
import type { Project } from '../project.ts';
import type { LinkSource } from '../render/links.ts';

const SITE_SOURCE = /\.(?:[cm]?[jt]sx?|html|ya?ml)$/;

/** The files of `folder` (recursively) whose names are site sources, skipping hidden ones. */
function sourceFiles(folder: string): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return entry.isFile() && SITE_SOURCE.test(entry.name) ? [full] : [];
    });
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The line of `text` holding `link` as a quoted value (`'/team'`, `"/team"`, `` `/team` ``, YAML's `href: /team`). */
function quotedLine(text: string, link: string): number | undefined {
  const escaped = link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const quoted = new RegExp(`(["'\`])${escaped}\\1|:\\s+${escaped}\\s*$`);
  const index = text.split(/\r\n|\r|\n/).findIndex((line) => quoted.test(line));
  return index === -1 ? undefined : index + 1;
}

/**
 * A `locate` for the link check: the article that carries the link in its Markdown (its line and
 * the target as written, `../hello-world.md#faq`), else the first site file, template or data
 * file that holds it as a quoted value.
 */
export function linkSourceFinder(
  project: Project,
): (written: string, files: readonly (string | undefined)[]) => LinkSource | undefined {
  const relative = (file: string) => path.relative(project.root, file).split(path.sep).join('/');
  let siteSources: string[] | undefined;
  return (written, files) => {
    for (const file of new Set(files)) {
      if (!file) continue;
      const source = readText(path.resolve(project.root, file));
      const found =
        source &&
        writtenLinkTargets(source).find(
          ({ target }) =>
            target === written ||
            articleLinkTarget(target, file, (other) => existsSync(path.resolve(project.root, other))) === written,
        );
      if (found) return { file, line: found.line, written: found.target };
    }
    siteSources ??= [path.dirname(project.siteEntry), path.dirname(project.template), project.contentDir].flatMap(
      sourceFiles,
    );
    for (const file of siteSources) {
      const text = readText(file);
      const line = text === undefined ? undefined : quotedLine(text, written);
      if (line !== undefined) return { file: relative(file), line, written };
    }
    return undefined;
  };
}
