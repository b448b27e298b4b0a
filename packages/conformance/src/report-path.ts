/**
 * Whether a file report can be written at a path, asked before the work so that a run is never lost to
 * a path that fails after it, and a report never lands on the input it was made from. Shared by the
 * commands that write reports (`conformance --report`, `diff --report`).
 */
import { accessSync, closeSync, constants, openSync, rmSync, statfsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

// Linux's proc and sysfs: folders that exist and pass access(), whose files cannot take a report.
const KERNEL_FILESYSTEMS = new Set([0x9fa0, 0x62656572]);

/**
 * Why a file report could not be written at `path` (one line), or null when it can. `inputs` are the
 * files the command reads: the report may not be one of them, under any name (a link, another path).
 * It tries, since access() says yes to /proc and to a read-only mount: an existing file is opened for
 * appending (not truncated), a new one is made and removed again.
 */
export function reportPathProblem(path: string, inputs: readonly string[] = []): string | null {
  const full = resolve(path);
  const dir = dirname(full);
  try {
    const st = statSync(full, { throwIfNoEntry: false });
    if (st?.isDirectory()) return 'it is a folder';
    const input = st && inputs.find((i) => sameFile(st, i));
    if (input !== undefined) return `it is the input ${input}`;
    const folder = statSync(dir, { throwIfNoEntry: false });
    if (!folder) return `the folder ${dir} does not exist`;
    if (!folder.isDirectory()) return `${dir} is not a folder`;
    if (KERNEL_FILESYSTEMS.has(statfsSync(dir).type))
      return `${dir} is on a kernel filesystem (proc or sys), not a folder for files`;
    // A device or a pipe (/dev/stdout) is only asked: opening a pipe with no reader would block.
    if (st && !st.isFile()) accessSync(full, constants.W_OK);
    else if (st) closeSync(openSync(full, 'a'));
    else {
      closeSync(openSync(full, 'wx'));
      rmSync(full);
    }
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return `${dir} is not a folder`;
    if (code === 'EROFS') return `${dir} is on a read-only filesystem`;
    return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (err as Error).message.split('\n')[0]!;
  }
}

/** Whether `input` is the file `st` describes: the same device and inode, whatever the path. */
function sameFile(st: { dev: number; ino: number }, input: string): boolean {
  try {
    const other = statSync(input, { throwIfNoEntry: false });
    return other !== undefined && other.dev === st.dev && other.ino === st.ino;
  } catch {
    return false; // an input that cannot be read is not this file; the command says so when it reads it
  }
}
