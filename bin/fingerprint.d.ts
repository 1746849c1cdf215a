/** A short hash of Node's version and every file in `<root>/src` (path, size, modification time). */
export function sourceFingerprint(root: string): string;
