/** Every file below `dir` by relative path: [size, SHA-256]; source maps by size only. */
export function libFileList(dir: string): Record<string, [number, string]>;
/** A hash of the sources lib/ is compiled from: src/ and the package's manifest, by content. */
export function sourceHash(root: string): string;
/** Why lib/ may not be run, or undefined when it may. */
export function libProblem(root: string): string | undefined;
