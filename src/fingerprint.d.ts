/** A short hash of Node's version, every file in `<root>/src` (path, size, modification time) and npm's install record. */
export function sourceFingerprint(root: string): string;
