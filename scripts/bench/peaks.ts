// The peak memory of every process a command runs: each of its descendants' high-water mark of
// resident memory (VmHWM in /proc/<pid>/status, which the kernel keeps for the process's life),
// sampled every `intervalMs` until stopped. A process that lives less than one interval may be
// missed; one that grows after the last sample before it ends is reported a little low.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessPeak {
  pid: number;
  /** `main` (the CLI), `helper` (a Markdown and drawing helper), `esbuild`, or the program's name. */
  kind: string;
  peakMb: number;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; // ended meanwhile
  }
}

/** Parent of each process now, by pid. */
function parents(): Map<number, number> {
  const found = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const ppid = stat && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) found.set(Number(name), ppid);
  }
  return found;
}

function kindOf(pid: number): string | undefined {
  const command = read(`/proc/${pid}/cmdline`)?.split('\0').filter(Boolean);
  if (!command || command.length === 0) return undefined;
  const text = command.join(' ');
  if (/markdown-(helper|worker)/.test(text)) return 'helper';
  if (/ssg\.js|cli\.ts/.test(text)) return 'main';
  if (/esbuild/.test(text)) return 'esbuild';
  return command[0]!.split('/').pop();
}

export function watchPeaks(rootPid: number, intervalMs = 100): { stop(): ProcessPeak[] } {
  const peaks = new Map<number, ProcessPeak>();
  const sample = () => {
    const parent = parents();
    const isDescendant = (pid: number) => {
      // Bounded by the depth of the process tree: each step goes one parent up, ending at pid 1.
      for (let at = parent.get(pid); at !== undefined && at > 1; at = parent.get(at)) if (at === rootPid) return true;
      return false;
    };
    for (const pid of parent.keys()) {
      if (!isDescendant(pid)) continue;
      const hwm = /VmHWM:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '');
      if (!hwm) continue;
      const known = peaks.get(pid);
      const kind = known?.kind ?? kindOf(pid);
      if (!kind || kind === 'bash') continue; // the shell that measures the CPU time
      peaks.set(pid, { pid, kind, peakMb: Math.max(known?.peakMb ?? 0, Math.round(Number(hwm[1]) / 1024)) });
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return [...peaks.values()].sort((a, b) =>
        a.kind === b.kind
          ? b.peakMb - a.peakMb
          : a.kind === 'main'
            ? -1
            : b.kind === 'main'
              ? 1
              : a.kind.localeCompare(b.kind),
      );
    },
  };
}

/** `main 412 MB, helper 301 + 288 MB, esbuild 35 MB`. */
export function formatPeaks(peaks: readonly ProcessPeak[]): string {
  const byKind = new Map<string, number[]>();
  for (const peak of peaks) byKind.set(peak.kind, [...(byKind.get(peak.kind) ?? []), peak.peakMb]);
  return [...byKind].map(([kind, list]) => `${kind} ${list.join(' + ')} MB`).join(', ');
}
