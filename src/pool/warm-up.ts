// A short article of the Markdown people write, converted a few times by dev's edit helper as it
// starts, results dropped: the conversion code is optimised before the first save, not during it.
// It shows no image, so it reads and writes nothing.
export const WARM_UP_ARTICLE = `## Version 2.0: what changes for readers

The **release** lands on day *1,024*; read the [release notes](https://example.org/notes) and
the [upgrade guide](/news/upgrade-guide#before-you-start) first. Nothing changes for ~~most~~ all
readers, and \`app-server\` restarts once.

### Before you start

1. Check the client version with \`node --version\`.
2. Back up the keys:
   - the database
   - the settings
3. Watch the dashboard.

> [!NOTE]
> Saved drafts are kept during the restart.[^1]

| Service | Version | Status |
| ------- | :-----: | -----: |
| Web     | v1.10   | ready  |
| Staging | v1.11   | testing |

- [x] Announce the window
- [ ] Upgrade the mirrors

\`\`\`ts
export async function restart(server: { stop(): Promise<void>; start(): Promise<void> }): Promise<number> {
  const started = Date.now();
  await server.stop();
  await server.start();
  return Date.now() - started;
}
\`\`\`

\`\`\`bash
systemctl restart app-server && journalctl -u app-server --since "5 min ago" | grep -i error
\`\`\`

\`\`\`json
{ "day": 1024, "version": "v1.10", "restart": true }
\`\`\`

[^1]: A restart of a minute or two loses no saved work.
`;

/** How many times the helper converts it. */
export const WARM_UP_CONVERSIONS = 12;
