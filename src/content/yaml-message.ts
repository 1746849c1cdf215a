import type { YAMLError } from 'yaml';

/** The parser's message without its own position, which we give as file:line instead. */
export function yamlMessage(error: YAMLError): string {
  return error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').trim();
}
