// The processes a sandbox machine started (sshMachine.ts). The platform takes a machine back when its rental
// ends: nothing started on it keeps running — a server started detached (`nohup setsid …`) included. Every
// command the sandbox machine runs carries the machine's mark in its environment, which what it starts
// inherits (a new session does not drop it); ending the machine kills every process with the mark and every
// descendant of one (a child that cleared its environment), found in /proc. Never the sandbox itself.

import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable that carries a machine's mark. */
export const MACHINE_MARK = 'COMPUTE_SANDBOX_MACHINE';

/** Looks and kills until this long has passed (a process forking while it is killed is caught by the next look). */
const END_WITHIN_MS = 30_000;

interface ProcessEntry {
  pid: number;
  ppid: number;
  zombie: boolean;
  marked: boolean;
}

function entry(pid: number, needle: Buffer): ProcessEntry | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    let marked = false;
    try {
      marked = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`)]).includes(needle);
    } catch {
      // another user's process, or gone
    }
    return { pid, ppid: Number(fields[1]), zombie: fields[0] === 'Z', marked };
  } catch {
    return undefined;
  }
}

function processes(mark: string): ProcessEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${MACHINE_MARK}=${mark}\0`);
  return names.filter((name) => /^\d+$/.test(name)).flatMap((name) => entry(Number(name), needle) ?? []);
}

/** The live processes with the mark and their descendants (never this process or its ancestors). */
export function machineProcesses(mark: string): number[] {
  const all = processes(mark);
  const children = new Map<number, number[]>();
  for (const item of all) children.set(item.ppid, [...(children.get(item.ppid) ?? []), item.pid]);
  const found = new Set<number>();
  const queue = all.filter((item) => item.marked).map((item) => item.pid);
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (found.has(pid)) continue;
    found.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  const byPid = new Map(all.map((item) => [item.pid, item]));
  for (let pid: number | undefined = process.pid; pid !== undefined && pid > 0; pid = byPid.get(pid)?.ppid) found.delete(pid);
  return [...found].filter((pid) => byPid.get(pid)?.zombie === false);
}

/** Kills every process of the machine (SIGKILL, as a machine taken back) until none is left. */
export async function endMachineProcesses(mark: string): Promise<void> {
  const deadline = Date.now() + END_WITHIN_MS;
  for (;;) {
    const left = machineProcesses(mark);
    if (left.length === 0 || Date.now() > deadline) return;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
