import { spawn, type ChildProcess } from 'node:child_process';
import { cliPath } from './project.ts';

/** Starts `ssg preview` as a process and resolves with the address it prints. */
export function startPreview(cwd: string, port = 0): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'preview', '--port', String(port)], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) resolve({ child, url: match[1]! });
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`preview exited ${code}: ${output}`)));
  });
}
