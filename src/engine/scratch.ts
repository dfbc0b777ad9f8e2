/**
 * Scratch folders of uploads and bulk starts under the temporary directory. Each is named after the process that
 * made it (`tms-file-start-<pid>-XXXXXX`) and deleted by its route when the request ends however it ends; a process
 * killed mid-request leaves its folders behind, so a starting service deletes those of processes no longer running
 * (and its own pid's: after a restart in a container the pid repeats, and nothing of this run exists yet).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The kinds of scratch folder, by their name's prefix. */
export const SCRATCH_KINDS = ['tms-file-start-', 'tms-media-', 'tms-start-'] as const;

/** A new scratch folder of this process. */
export function scratchDir(kind: (typeof SCRATCH_KINDS)[number], root = tmpdir()): Promise<string> {
  return mkdtemp(join(root, `${kind}${process.pid}-`));
}

/** True when a process with this id runs (a signal 0 reaches it, or it exists under another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Deletes the scratch folders left by processes that no longer run (and by earlier versions, whose names carry no pid); returns their names. */
export async function removeLeftoverScratch(root = tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const kind = SCRATCH_KINDS.find((k) => name.startsWith(k));
    if (!kind) continue;
    const pid = /^(\d+)-/.exec(name.slice(kind.length))?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && running(Number(pid))) continue;
    await rm(join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
