/**
 * Reading a file the user (or a replay file) named: only a regular file, and only so much of it. A FIFO,
 * a device or a socket there would block the read forever (or never end), and a huge file would fill
 * memory; each is refused in one line naming the path. The file is opened without blocking and judged by
 * what was opened (fstat), so nothing swapped in between the look and the read is read instead.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** The largest spec or replay file read: far above any real one (the spec is about 300 kB). */
export const MAX_READ_BYTES = 32 * 1024 * 1024;

/** What a non-regular file is, in words. */
function kindOf(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * The text of the regular file at `path`; throws an Error naming `what` and the path when it cannot be
 * opened, is not a regular file, or is larger than `maxBytes`.
 */
export function readRegularFile(path: string, what: string, maxBytes = MAX_READ_BYTES): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new Error(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, {
      cause: err,
    });
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) throw new Error(`${what} ${path} is ${kindOf(s)}, not a regular file: refused`);
    if (s.size > maxBytes)
      throw new Error(`${what} ${path} is ${s.size} bytes, over the ${maxBytes} this reads: refused`);
    // Read at most one byte past the size fstat gave: a file that grows meanwhile is refused, never read whole.
    const buf = Buffer.alloc(s.size + 1);
    let n = 0;
    for (let got = -1; got !== 0 && n < buf.length; n += got) got = readSync(fd, buf, n, buf.length - n, null);
    if (n > s.size) throw new Error(`${what} ${path} grew while it was read: refused`);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
