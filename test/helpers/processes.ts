// Processes as /proc shows them, for tests that check what was started and what was ended (Linux only).
import fs from 'node:fs';

/** Whether the process runs (a zombie left for a reaper counts as stopped). */
export function runs(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** `pid` and every process below it, as /proc shows them now. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone
    }
  }
  const found = [pid];
  for (let index = 0; index < found.length; index++) for (const [child, parent] of parents) if (parent === found[index]) found.push(child);
  return found;
}

/** The command line of a process, or '' once it is gone. */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}
