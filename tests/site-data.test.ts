import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, type TempSite } from './helpers/project.ts';
import { buildRealSite } from './helpers/site.ts';

const run = (file: string, args: string[], cwd: string) => promisify(execFile)(file, args, { cwd });

describe('content checked against the site schema', () => {
  let site: TempSite;
  const originals = new Map<string, string>();

  beforeAll(async () => {
    site = await buildRealSite();
    for (const file of ['content/networks.yaml', 'content/team.yaml', 'content/site.yaml'])
      originals.set(file, await site.read(file));
  });
  afterAll(() => site?.dispose());

  async function buildWith(file: string, edit: (text: string) => string) {
    await site.write(file, edit(originals.get(file)!));
    const result = await site.run(['build']);
    await site.write(file, originals.get(file)!);
    return result;
  }

  it('a missing and a mistyped field fail the build naming the file, line, entry and field, all at once', async () => {
    let edited = '';
    const result = await buildWith('content/networks.yaml', (text) => {
      edited = text
        .replace('- name: Ethereum\n  status: Active\n', '- name: Ethereum\n')
        .replace('tags: [Mainnet, Solo Staking, Staking as a service]', 'tags: Mainnet');
      return edited;
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/content\/networks\.yaml:\d+: entry 2 \("Ethereum"\) → status: /);
    expect(result.stderr).toMatch(/content\/networks\.yaml:\d+: entry 3 \("Gnosis"\) → tags: .*array/i);
    expect(result.stderr).toContain('hint: Correct the fields listed above.');
    // The line is the one of the field, or of its entry when the field is missing.
    const line = Number(/networks\.yaml:(\d+): entry 3/.exec(result.stderr)![1]);
    const lines = edited.split('\n');
    expect(lines[line - 1]).toContain('tags:');
  });

  it('a wrong status value is named with the allowed ones', async () => {
    const result = await buildWith('content/networks.yaml', (text) =>
      text.replace('status: Exploring', 'status: Maybe'),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/entry 4 \("Optimism"\) → status: .*"Active".*"Exploring"/);
  });

  it('a team member without a photo', async () => {
    const result = await buildWith('content/team.yaml', (text) => text.replace('  photo: /team/advisor.svg\n', ''));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/content\/team\.yaml:\d+: entry 2 \("Sam Example"\) → photo: /);
  });

  it('a bad e-mail address and an unknown field in the site config', async () => {
    const result = await buildWith('content/site.yaml', (text) =>
      text.replace(/^email: .*$/m, 'email: not-an-address\ncolour: blue'),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/content\/site\.yaml:\d+: email: must be an e-mail address/);
    expect(result.stderr).toMatch(/content\/site\.yaml:\d+: .*colour/);
  });

  it('a misspelt key in the site config is one error, naming the key meant at its line', async () => {
    let edited = '';
    const result = await buildWith('content/site.yaml', (text) => (edited = text.replace(/^email:/m, 'emial:')));
    expect(result.code).toBe(1);
    const line = edited.split('\n').findIndex((one) => one.startsWith('emial:')) + 1;
    expect(result.stderr).toContain(
      `[DataKeyUnknown] A data file has a key its schema does not know\n  content/site.yaml:${line}: emial is not a key this file takes; did you mean email?\n  hint: Rename emial to email.`,
    );
    expect(result.stderr.match(/^\[/gm)).toHaveLength(1);
    expect(result.stderr).not.toContain('must be an e-mail address');
  });

  it('broken YAML syntax names the file and line', async () => {
    const result = await buildWith('content/team.yaml', (text) => text.replace('  role: Advisor', '  role: [Advisor'));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /\[DataInvalidYaml\] A data file is not valid YAML\n {2}content\/team\.yaml:\d+:\d+: Invalid YAML/,
    );
  });

  it('warns in one line with the count of fields that still hold an example value, and where to list them', async () => {
    const result = await site.run(['build']);
    expect(result.code).toBe(0);
    const warnings = result.stderr.match(/^warning .*$/gm) ?? [];
    expect(warnings).toEqual([
      expect.stringMatching(
        /^warning \d+ fields of content\/\*\.yaml still hold example values; "npm run placeholders" lists them/,
      ),
    ]);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('npm run placeholders lists each such field with its file and line', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(repoRoot, 'scripts', 'placeholders.ts'), site.dir],
      repoRoot,
    );
    for (const field of [
      'content/site.yaml:4 → email: hello@example.com',
      'content/site.yaml:17 → challenge.siteKey',
      'content/site.yaml',
      'legal.vatId',
      'content/networks.yaml',
      '[0].address',
      'content/team.yaml',
      '[0].name',
    ]) {
      expect(stdout).toContain(field);
    }
    const count = Number(/^warning (\d+) fields/m.exec((await site.run(['build'])).stderr)![1]);
    expect(stdout).toContain(`${count} fields hold example values.`);
  });

  it('says nothing about example values with "placeholders: allowed" in content/site.yaml', async () => {
    const result = await buildWith('content/site.yaml', (text) => `${text}\nplaceholders: allowed\n`);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('says nothing once the example values are replaced', async () => {
    const real = (text: string) =>
      text
        .replace(/[\w.-]*example[\w.-]*/gi, 'acme')
        .replace(/1x00000000000000000000AA/, '0x4AAAAAAAreal')
        .replace(/0x0{40}/g, '0x1234567890abcdef1234567890abcdef12345678');
    for (const file of ['content/networks.yaml', 'content/team.yaml', 'content/site.yaml']) {
      await site.write(
        file,
        real(originals.get(file)!)
          .replace(/^email: .*$/m, 'email: hello@acme.at')
          .replace(/^baseUrl: .*$/m, 'baseUrl: https://acme.at'),
      );
    }
    const result = await site.run(['build']);
    for (const [file, text] of originals) await site.write(file, text);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
