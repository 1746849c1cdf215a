// What drawing a generated file from plain data means wherever it runs (this process or a helper):
// the site's drawer, the job it is given, and the drawing of many at once.

/** Draws one generated file from the plain data its `draw.input` holds; `root` is the site folder (for fonts). */
export type Drawer = (input: any, context: { root: string }) => Promise<Uint8Array> | Uint8Array; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A file to draw with one of the site's drawers, from plain data. */
export interface DrawJob {
  /** Its path on the site, for messages. */
  path: string;
  drawer: string;
  input: unknown;
}

/** Draws files with the site's drawers (in helper processes, or here): one promise per job, in order. */
export type DrawMany = (jobs: readonly DrawJob[]) => Array<Promise<Uint8Array>>;

/** The site's drawers run here, one file after another. */
export function drawHere(drawers: Readonly<Record<string, Drawer>> | undefined, root: string): DrawMany {
  let queue: Promise<unknown> = Promise.resolve();
  return (jobs) =>
    jobs.map((job) => {
      const drawn = queue.then(() => {
        const drawer = drawers?.[job.drawer];
        if (typeof drawer !== 'function') throw new Error(`the site has no drawer ${JSON.stringify(job.drawer)}`);
        return drawer(job.input, { root });
      });
      queue = drawn.catch(() => {});
      return drawn;
    });
}
