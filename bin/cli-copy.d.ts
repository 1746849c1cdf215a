/** Whether the compiled CLI copy in `dir` is whole: every file as its list records it. */
export function copyIntact(dir: string): boolean;
/** The compiled CLI entry below `<root>/.cache`, made or remade as needed; throws when it cannot be had. */
export function compiledEntry(root: string): Promise<string>;
