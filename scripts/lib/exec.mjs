// Small process helpers shared by the scripts: run a command to completion (or, for minutes-long ones,
// with a progress line every few seconds and the output in a log), spawn a long-lived server
// in its own process group, stop that group, find a free loopback port, wait for an HTTP endpoint.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

/** Runs a command with inherited output; resolves with its exit code (never rejects on a non-zero exit). */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: options.stdio ?? 'inherit', ...options });
    let output = '';
    child.stdout?.on('data', (chunk) => { output += chunk; options.onOutput?.(String(chunk)); });
    child.stderr?.on('data', (chunk) => { output += chunk; options.onOutput?.(String(chunk)); });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), signal, output }));
  });
}

/** Like run(), but a non-zero exit is an error that names the command. */
export async function runOrThrow(command, args, options = {}) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const tail = result.output ? `\n${result.output.split('\n').slice(-30).join('\n')}` : '';
    throw new Error(`\`${[command, ...args].join(' ')}\` exited with ${result.code}${tail}`);
  }
  return result;
}

/**
 * Runs a long command (minutes) with its output going to logFile, and every intervalMs tells the user it
 * is still going: the elapsed time and the latest output line that `phase` recognises (a short name of
 * the current step), so a first install is never silent. Throws with the log's tail on a non-zero exit.
 */
export async function runWithProgress(command, args, { logFile, label, phase = () => undefined, intervalMs = 15_000, say = console.log, ...options }) {
  const log = fs.createWriteStream(logFile, { flags: 'a' });
  const started = Date.now();
  let current;
  let pending = '';
  const onOutput = (text) => {
    log.write(text);
    const lines = (pending + text).split('\n');
    pending = lines.pop() ?? '';
    if (pending.length > 4096) pending = pending.slice(-4096);
    for (const line of lines) current = phase(line) ?? current;
  };
  const timer = setInterval(() => say(`${label}: ${formatElapsed(Date.now() - started)}${current ? ` (${current})` : ''} …`), intervalMs);
  let result;
  try {
    result = await run(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'], onOutput });
  } finally {
    clearInterval(timer);
    await new Promise((resolve) => log.end(resolve));
  }
  if (result.code !== 0) {
    const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
    throw new Error(`\`${[command, ...args].join(' ')}\` exited with ${result.code} (full log: ${logFile})\n${tail}`);
  }
  return { seconds: Math.round((Date.now() - started) / 1000) };
}

/** 75_000 → "1 min 15 s". */
export function formatElapsed(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * Starts a long-lived process as the leader of a new process group (detached), so that stopGroup()
 * also stops everything it forks (code-server spawns its extension host and file watchers).
 */
export function spawnGroup(command, args, options = {}) {
  const child = spawn(command, args, { ...options, detached: true, stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'] });
  return child;
}

/** Sends SIGTERM to the group, then SIGKILL if it is still alive after graceMs. */
export async function stopGroup(child, graceMs = 3000) {
  if (!child || child.pid === undefined) return;
  const pgid = child.pid;
  const alive = () => { try { process.kill(-pgid, 0); return true; } catch { return false; } };
  if (!alive()) return;
  try { process.kill(-pgid, 'SIGTERM'); } catch { /* already gone */ }
  const deadline = Date.now() + graceMs;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) { try { process.kill(-pgid, 'SIGKILL'); } catch { /* already gone */ } }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Polls url until it answers 2xx, the process exits, or timeoutMs passes (then throws). */
export async function waitForHttp(url, { timeoutMs = 30_000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before ${url} answered`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      lastError = `HTTP ${response.status}`;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (${lastError})`);
}

/** Resolves with a promise's value, or rejects with a named timeout error after ms. */
export function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms); });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
