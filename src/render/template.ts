import { readFile } from 'node:fs/promises';
import { catalogueError } from '../errors/errors.ts';

const HEAD_MARKER = '<!--ssg:head-->';
const BODY_MARKER = '<!--ssg:body-->';

/** The HTML shell around every page, split at its two markers. */
export interface DocumentShell {
  parts: [string, string, string];
}

function parseTemplate(source: string, file: string): DocumentShell {
  for (const marker of [HEAD_MARKER, BODY_MARKER]) {
    if (!source.includes(marker)) {
      throw catalogueError('TemplateMarkerMissing', [marker], { file });
    }
  }
  const [beforeHead, afterHead] = source.split(HEAD_MARKER, 2) as [string, string];
  const [between, afterBody] = afterHead.split(BODY_MARKER, 2) as [string, string];
  return { parts: [beforeHead, between, afterBody] };
}

export async function loadTemplate(file: string, displayName: string): Promise<DocumentShell> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (error) {
    throw catalogueError('TemplateMissing', [], { file: displayName }, { cause: error });
  }
  return parseTemplate(source, displayName);
}

export function fillTemplate(shell: DocumentShell, head: string, body: string): string {
  const [beforeHead, between, afterBody] = shell.parts;
  return beforeHead + head + between + body + afterBody;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}
