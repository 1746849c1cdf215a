// The options several commands share, and their parsers.
import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_LIMITS, type ArticleLimits } from '../content/limits.ts';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('Give a port from 0 to 65535.');
  return port;
}

/** A whole number from 1 to `max` (a limit's option). */
function positiveWhole(max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1 || number > max)
      throw new InvalidArgumentError(`Give a whole number from 1 to ${max}.`);
    return number;
  };
}

/** What one article may cost, as the options of build and dev give it (see docs/reference/limits.md). */
export interface LimitOptions {
  maxArticleKb?: number;
  maxNesting?: number;
  articleSeconds?: number;
}

/** The limits' options, shared by build and dev. */
export function withLimitOptions(command: Command): Command {
  return command
    .option(
      '--max-article-kb <kb>',
      `largest article file, in KB (default: ${DEFAULT_LIMITS.maxBytes / 1024})`,
      positiveWhole(1024 * 1024),
    )
    .option(
      '--max-nesting <levels>',
      `deepest nesting of lists and block quotes in an article (default: ${DEFAULT_LIMITS.maxDepth})`,
      positiveWhole(10_000),
    )
    .option(
      '--article-seconds <s>',
      `longest one article's conversion may take, in seconds (default: ${DEFAULT_LIMITS.timeoutMs / 1000})`,
      positiveWhole(24 * 3600),
    );
}

export function limitsOf(options: LimitOptions): ArticleLimits {
  return {
    ...DEFAULT_LIMITS,
    ...(options.maxArticleKb ? { maxBytes: options.maxArticleKb * 1024 } : {}),
    ...(options.maxNesting ? { maxDepth: options.maxNesting } : {}),
    ...(options.articleSeconds ? { timeoutMs: options.articleSeconds * 1000 } : {}),
  };
}

export interface GlobalOptions {
  root: string;
  verbose?: boolean;
}
