// Deterministic news articles of about 650 words of varied Markdown, for the benchmarks.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const WORDS = (
  'validator staking network consensus epoch block reward delegation uptime monitoring infrastructure ' +
  'redundant bare-metal node client upgrade fork governance proposal slashing security key management ' +
  'withdrawal queue attestation committee finality latency bandwidth datacenter Vienna operator community ' +
  'protocol testnet mainnet endpoint load balancer telemetry alerting incident report performance'
).split(' ');

function random(seed: number) {
  let state = seed * 2654435761 + 1;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function sentence(next: () => number, words: number): string {
  const picked = Array.from({ length: words }, () => WORDS[Math.floor(next() * WORDS.length)]!);
  picked[0] = picked[0]![0]!.toUpperCase() + picked[0]!.slice(1);
  return `${picked.join(' ')}.`;
}

function paragraph(next: () => number): string {
  const parts = Array.from({ length: 4 }, () => sentence(next, 8 + Math.floor(next() * 8)));
  parts[1] = parts[1]!.replace(/ (\w+) (\w+)/, ' **$1** *$2*');
  parts[2] = parts[2]!.replace(/ (\w+)\./, ' [$1](https://example.org/$1).');
  return parts.join(' ');
}

export function articleMarkdown(index: number): string {
  const next = random(index + 1);
  const day = String((index % 28) + 1).padStart(2, '0');
  const month = String((index % 12) + 1).padStart(2, '0');
  const year = 2020 + (index % 6);
  const blocks = [
    `---\ntitle: ${sentence(next, 5).slice(0, -1)} ${index}\ndate: "${year}-${month}-${day}"\nexcerpt: ${sentence(next, 12)}\ntags: [bench, ${WORDS[index % WORDS.length]}]\n---`,
    paragraph(next),
    `## ${sentence(next, 4).slice(0, -1)}`,
    paragraph(next),
    Array.from({ length: 4 }, () => `- ${sentence(next, 6)}`).join('\n'),
    paragraph(next),
    `> ${sentence(next, 14)}`,
    '```sh\ncurl -s https://rpc.example.org/health | jq .status\n```',
    `## ${sentence(next, 3).slice(0, -1)}`,
    paragraph(next),
    '| Network | Uptime | Commission |\n|---|---|---|\n| Celo | 99.98% | 5% |\n| Gnosis | 99.95% | 3% |',
    paragraph(next),
    Array.from({ length: 3 }, (_, item) => `${item + 1}. ${sentence(next, 7)}`).join('\n'),
    paragraph(next),
    `### ${sentence(next, 3).slice(0, -1)}`,
    paragraph(next),
    paragraph(next),
    paragraph(next),
    paragraph(next),
    paragraph(next),
  ];
  return `${blocks.join('\n\n')}\n`;
}

export async function writeArticles(dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const batch = 64;
  for (let start = 0; start < count; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - start) }, (_, offset) => {
        const index = start + offset;
        return writeFile(path.join(dir, `bench-article-${index}.md`), articleMarkdown(index));
      }),
    );
  }
}
