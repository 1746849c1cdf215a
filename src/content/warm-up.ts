// A short article of the Markdown people write (headings, emphasis, links, lists, a quote, a
// table, a task list, strikethrough, a footnote, code in a few languages), converted a few times
// by dev's edit helper as soon as it starts, results dropped: the conversion code is compiled and
// optimised before the first save instead of during it (the first saves' conversions took 30-60 ms
// where later ones take 10-15). It shows no image, so it reads and writes nothing.
export const WARM_UP_ARTICLE = `## Network upgrade: what changes for delegators

The **upgrade** lands at epoch *1,024*; read the [release notes](https://example.org/notes) and
the [staking guide](/news/staking-guide#before-you-start) first. Nothing changes for ~~most~~ all
delegators, and \`validator-client\` restarts once.

### Before you start

1. Check the client version with \`node --version\`.
2. Back up the keys:
   - the signing key
   - the withdrawal key
3. Watch the dashboard.

> [!NOTE]
> Rewards keep accruing during the restart.[^1]

| Network | Client | Status |
| ------- | :----: | -----: |
| Mainnet | v1.10  | ready  |
| Testnet | v1.11  | testing |

- [x] Announce the window
- [ ] Upgrade the sentry nodes

\`\`\`ts
export async function restart(node: { stop(): Promise<void>; start(): Promise<void> }): Promise<number> {
  const started = Date.now();
  await node.stop();
  await node.start();
  return Date.now() - started;
}
\`\`\`

\`\`\`bash
systemctl restart validator && journalctl -u validator --since "5 min ago" | grep -i error
\`\`\`

\`\`\`json
{ "epoch": 1024, "client": "v1.10", "restart": true }
\`\`\`

[^1]: Attestations missed during a restart of a minute or two cost less than a slashing.
`;

/** How many times the helper converts it. */
export const WARM_UP_CONVERSIONS = 12;
