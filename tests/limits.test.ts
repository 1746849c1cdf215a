// The limits an article cannot pass, checked before the expensive work (src/content/limits.ts,
// the front matter's in src/content/frontmatter.ts): each a named error naming the file and line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nestingDepth } from '../src/content/limits.ts';
import { MAX_FRONT_MATTER_LENGTH, splitFrontMatter } from '../src/content/frontmatter.ts';
import { SsgError } from '../src/errors/errors.ts';

const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as SsgError;
  }
  throw new Error('expected an error');
};

describe('nestingDepth', () => {
  it('counts quotes, list markers and indentation, the deepest line first found', () => {
    expect(nestingDepth('- a\n  - b\n    - c')).toEqual({ depth: 3, line: 3 });
    expect(nestingDepth(`text\n${'>'.repeat(500)} x`)).toEqual({ depth: 500, line: 2 });
    expect(nestingDepth(`${'- '.repeat(300)}x`).depth).toBeGreaterThanOrEqual(300);
    expect(nestingDepth('1. a\n   1) b').depth).toBeGreaterThanOrEqual(2);
  });

  it('skips fenced code, but only what CommonMark takes for a fence (no way around the count)', () => {
    const deep = `${'>'.repeat(20_000)} x`;
    expect(nestingDepth(`\`\`\`\n${'  '.repeat(300)}code\n\`\`\`\n`).depth).toBe(0);
    expect(nestingDepth(`~~~~\n${'  '.repeat(300)}code\n~~~\n~~~~\nafter`).depth).toBe(0);
    // No fence: a backtick after a backtick fence, four columns in (indented code), a quote that ended.
    expect(nestingDepth(`\`\`\`a\`b\n${deep}`).depth).toBe(20_000);
    expect(nestingDepth(`para\n    \`\`\`\n${deep}`).depth).toBe(20_000);
    expect(nestingDepth(`> \`\`\`\n> code\nend of the quote\n${deep}`).depth).toBe(20_000);
  });

  it('is never below what the parser nests, for random containers (fast-check)', () => {
    const marker = fc.constantFrom('> ', '- ', '* ', '+ ', '1. ', '2) ');
    fc.assert(
      fc.property(fc.array(fc.array(marker, { maxLength: 30 }), { maxLength: 20 }), (lines) => {
        const body = lines.map((markers) => `${markers.join('')}x`).join('\n');
        const deepest = Math.max(0, ...lines.map((markers) => markers.length));
        expect(nestingDepth(body).depth).toBeGreaterThanOrEqual(deepest);
      }),
    );
  });
});

describe('front matter limits', () => {
  it('longer than 32 KiB, nested past the stack, a scalar merged: named errors, never an internal one', () => {
    const long = errorOf(() =>
      splitFrontMatter(`---\n${Array.from({ length: 6000 }, (_, n) => `k${n}: 1`).join('\n')}\n---\nbody`, 'a.md'),
    );
    expect([long.code, long.where]).toEqual(['FrontMatterTooLarge', 'a.md:1']);
    expect(long.message).toContain(`at most ${MAX_FRONT_MATTER_LENGTH} are read`);
    const dotted = errorOf(() =>
      splitFrontMatter(`+++\ntitle = "x"\n${Array(5000).fill('a').join('.')} = 1\n+++\n`, 'a.md'),
    );
    expect(dotted.code).toBe('FrontMatterTooDeep');
    const table = errorOf(() => splitFrontMatter(`+++\n[${Array(5000).fill('a').join('.')}]\nb = 1\n+++\n`, 'a.md'));
    expect(table.code).toBe('FrontMatterTooDeep');
    const yaml = errorOf(() => splitFrontMatter(`---\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n---\n`, 'a.md'));
    expect(yaml.code).toBe('FrontMatterTooDeep');
    const json = errorOf(() => splitFrontMatter(`{\n"x": ${'['.repeat(12_000)}${']'.repeat(12_000)}\n}\n`, 'a.md'));
    expect(json.code).toBe('FrontMatterTooDeep');
    const merged = errorOf(() => splitFrontMatter('---\na: &a x\nc: {<<: *a}\n---\n', 'a.md'));
    expect(merged.code).toBe('FrontMatterInvalidYaml');
    expect(merged.message).toContain('Merge sources must be maps');
  });
});
