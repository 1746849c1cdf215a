// `ssg inbox list` and `ssg inbox export`: the messages the site's forms stored, read only.
import type { Command } from 'commander';
import { once } from 'node:events';
import path from 'node:path';
import type { StoredMessage } from '../inbox/message.ts';
import { reportFailure } from './exit.ts';
import type { GlobalOptions } from './options.ts';
import { needingSqlite } from './server-commands.ts';

export function addInboxCommands(program: Command): void {
  const inbox = program
    .command('inbox')
    .description('read the messages the site forms stored (DATA_DIR, default ./data)');
  addInboxListCommand(inbox);
  addInboxExportCommand(inbox);
}

// Read-only and without creating anything: the inbox may belong to a running server. Written
// one message at a time, waiting for the pipe: an inbox may be larger than the process's memory.
async function eachMessage(
  command: Command,
  options: { undelivered?: boolean },
  print: (message: StoredMessage, index: number) => string,
): Promise<number> {
  const global = command.optsWithGlobals<GlobalOptions & { dataDir?: string }>();
  const { iterateInbox } = await needingSqlite(() => import('../inbox/inbox-sqlite.ts'));
  let count = 0;
  for (const message of iterateInbox(
    path.resolve(global.root, global.dataDir ?? process.env.DATA_DIR ?? 'data'),
    options,
  )) {
    if (!process.stdout.write(print(message, count++))) await once(process.stdout, 'drain');
  }
  return count;
}

function addInboxListCommand(inbox: Command): void {
  inbox
    .command('list')
    .description('list stored messages, newest last')
    .option('--data-dir <dir>', 'where the inbox is (default: DATA_DIR or data)')
    .option('--undelivered', 'only messages not yet delivered by mail')
    .action(async (options: { undelivered?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      try {
        const { formatInboxLine } = await import('../inbox/inbox-listing.ts');
        const count = await eachMessage(command, options, (message) => `${formatInboxLine(message)}\n`);
        if (count === 0) process.stdout.write('No messages.\n');
      } catch (error) {
        reportFailure(error, Boolean(global.verbose), 'Inbox failed');
      }
    });
}

function addInboxExportCommand(inbox: Command): void {
  inbox
    .command('export')
    .description('print stored messages as JSON')
    .option('--data-dir <dir>', 'where the inbox is (default: DATA_DIR or data)')
    .option('--json', 'JSON, one array (the only format)', true)
    .option('--undelivered', 'only messages not yet delivered by mail')
    .action(async (options: { undelivered?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      try {
        const { escapeControlCharactersKeepingLines } = await import('../base/control-characters.ts');
        // The array JSON.stringify(messages, null, 2) gives, an element at a time. It escapes C0
        // controls only; the others (DEL, C1, bidi, U+2028) become \uXXXX too, which is still the
        // same JSON. Raw line feeds in its output are its own indentation.
        const element = (message: StoredMessage, index: number) =>
          `${index === 0 ? '[\n' : ',\n'}${escapeControlCharactersKeepingLines(JSON.stringify(message, null, 2)).replace(/^/gm, '  ')}`;
        const count = await eachMessage(command, options, element);
        process.stdout.write(count === 0 ? '[]\n' : '\n]\n');
      } catch (error) {
        reportFailure(error, Boolean(global.verbose), 'Inbox failed');
      }
    });
}
