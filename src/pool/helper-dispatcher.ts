// Hands tasks to Markdown helper processes, one at a time each, with each article's time and
// memory budget. The pool (markdown-pool.ts) makes the tasks.
import type { HelperReply, HelperRequest } from './markdown-worker.ts';
import { catalogueError, SsgError } from '../errors/errors.ts';
import type { Helper } from './helper-process.ts';

/** What a task's clock allows beyond the budget until the helper says it started the first article (a helper loading on a busy machine). */
const START_ALLOWANCE_MS = 15_000;

/** One piece of work for a helper: the message it is sent, and what becomes of the answer. */
export interface Task {
  message: HelperRequest;
  /** The files it works on, named if its helper ends. */
  files: readonly string[];
  doing: 'converting' | 'drawing';
  done(reply: HelperReply): void;
  fail(error: unknown): void;
}

/** What a helper is doing: its task, the file it works on now (it says as it starts each article), and the budget's timer. */
interface Busy {
  task: Task;
  file: string | undefined;
  timer: NodeJS.Timeout;
  /** Set when the timer stopped it. */
  late?: string;
}

/** The clock of one article (or drawing): past `timeoutMs`, its helper is killed and the article noted as the one that was late. */
function budgetTimer(
  busy: ReadonlyMap<Helper, Busy>,
  helper: Helper,
  file: string | undefined,
  timeoutMs: number,
): NodeJS.Timeout {
  return setTimeout(() => {
    const state = busy.get(helper);
    if (!state) return;
    state.late = file ?? state.task.files[0];
    helper.process.kill('SIGKILL');
  }, timeoutMs);
}

/** Whether a helper ended by its own code (an exit code, no signal from outside) while on one article: that article's doing. */
const endedByArticle = (state: Busy, signal: NodeJS.Signals | null) =>
  state.task.doing === 'converting' && state.file !== undefined && signal === null;

/** How a task given to a pool whose helpers all ended is failed: its article never reached one. */
const NOT_SENT = 'before its work was sent';

/** Whether a conversion failed because the pool's helpers had all ended, its article never sent. */
export const endedBeforeSent = (error: unknown) =>
  error instanceof SsgError && error.code === 'MarkdownHelperEnded' && error.message.includes(`(${NOT_SENT})`);

const helperEnded = (how: string, task: Task) =>
  catalogueError('MarkdownHelperEnded', [how, task.files.length ? task.files : ['its first task'], task.doing]);

/** Why a helper's task failed: its article ran past its time or out of memory (named), or the helper ended. */
function helperFailure(
  helper: Helper,
  state: Busy,
  how: { text: string; byArticle: boolean },
  limits: { timeoutMs: number; memoryMb: number },
) {
  const { task } = state;
  const seconds = Math.round(limits.timeoutMs / 100) / 10;
  if (state.late && task.doing === 'converting')
    return catalogueError('ArticleTooSlow', [seconds], { file: state.late });
  if (helper.outOfMemory && task.doing === 'converting' && state.file)
    return catalogueError('ArticleOutOfMemory', [limits.memoryMb], { file: state.file });
  if (!state.late && how.byArticle && state.file)
    return catalogueError('ArticleEndedHelper', [how.text], { file: state.file });
  return helperEnded(state.late ? `stopped after ${seconds} s` : how.text, task);
}

/** Whether the reply says the helper starts the next article of its batch: each has the whole budget. */
function progressed(
  state: Busy,
  reply: HelperReply | { progress: string },
  rearm: (file: string) => Busy['timer'],
): reply is { progress: string } {
  if (typeof reply !== 'object' || !('progress' in reply)) return false;
  state.file = reply.progress;
  state.timer = rearm(reply.progress);
  return true;
}

/**
 * Hands tasks to helpers, one at a time each: Markdown batches first (pages wait for them), then
 * drawings. Each article (each drawing) may take `timeoutMs`: a helper past it is killed, its task
 * fails naming the article (ArticleTooSlow), and a new helper takes its place; so does one that
 * ran out of memory (ArticleOutOfMemory). A helper that ends otherwise fails its task, naming its
 * files; when none is left, every task still waiting fails the same way. Nothing is sent to a
 * helper that ended.
 */
export function dispatcher(
  spawn: () => Helper,
  size: number,
  limits: { timeoutMs: number; memoryMb: number },
  ready?: Helper,
) {
  const queues: Record<'markdown' | 'draw', Task[]> = { markdown: [], draw: [] };
  const busy = new Map<Helper, Busy>();
  const live = new Set<Helper>();
  let whenIdle: (() => void) | undefined;
  let closed = false;
  const idle = () => busy.size === 0 && queues.markdown.length === 0 && queues.draw.length === 0;
  const arm = (helper: Helper, file: string | undefined, allowance = 0) =>
    budgetTimer(busy, helper, file, limits.timeoutMs + allowance);
  const pump = () => {
    for (const helper of live) {
      if (busy.has(helper)) continue;
      const task = queues.markdown.shift() ?? queues.draw.shift();
      if (!task) return;
      // The batch's first article (or the drawing) is what the helper starts on.
      busy.set(helper, { task, file: task.files[0], timer: arm(helper, task.files[0], START_ALLOWANCE_MS) });
      helper.process.send(task.message, (error) => error && helper.process.kill()); // ended meanwhile: its exit fails the task
    }
  };
  const add = (helper: Helper) => {
    live.add(helper);
    helper.process.on('message', (reply: HelperReply | { progress: string } | 'ready') => {
      const state = busy.get(helper);
      if (reply === 'ready' || !state) return;
      clearTimeout(state.timer);
      if (progressed(state, reply, (file) => arm(helper, file))) return;
      busy.delete(helper);
      state.task.done(reply);
      pump();
      if (idle()) whenIdle?.();
    });
    helper.process.once('exit', (code, signal) => {
      live.delete(helper);
      const [how, state] = [signal ? `stopped by ${signal}` : `exit code ${code}`, busy.get(helper)];
      busy.delete(helper);
      if (state) {
        clearTimeout(state.timer);
        const byArticle = !closed && endedByArticle(state, signal);
        state.task.fail(helperFailure(helper, state, { text: how, byArticle }, limits));
        // Stopped for one article's sake: the others go on in a new helper.
        if (!closed && (state.late || helper.outOfMemory || byArticle)) {
          add(spawn());
          pump();
          if (idle()) whenIdle?.();
          return;
        }
      }
      if (live.size > 0) return;
      for (const waiting of [...queues.markdown.splice(0), ...queues.draw.splice(0)])
        waiting.fail(helperEnded(how, waiting));
      if (idle()) whenIdle?.();
    });
  };
  // A helper started ahead of the pool (a build's spare), then new ones up to the size.
  if (ready) add(ready);
  for (let count = live.size; count < size; count++) add(spawn());
  return {
    helpers: () => [...live].map((helper) => helper.process),
    /** No helper is started again after this. */
    close() {
      closed = true;
      for (const state of busy.values()) clearTimeout(state.timer);
    },
    /** Calls `then` once no task is running or waiting (now, if none is). */
    onIdle(then: () => void) {
      whenIdle = then;
      if (idle()) then();
    },
    add(kind: 'markdown' | 'draw', task: Task) {
      if (live.size === 0) return task.fail(helperEnded(NOT_SENT, task));
      queues[kind].push(task);
      pump();
    },
  };
}

export type AddTask = ReturnType<typeof dispatcher>['add'];
