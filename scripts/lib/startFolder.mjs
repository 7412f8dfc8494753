// The folder `npm start` keeps between runs, so that nothing a user did in the started VS Code is lost
// when it stops: git-ignored `.start/` in the repository (COMPUTE_TOOLKIT_START_DIR names another).
//   workspace/   the sample project VS Code opens: seeded once when absent, never overwritten or deleted
//   user-data/   VS Code's user data: settings, profiles, chat history, editor state
//   extensions/  the installed extension, refreshed from the fresh build at each start
//   logs/        sandbox.log and code-server.log of the latest run
//   run/         files of the current run only (sandbox keys, .vsix, TMPDIR): the only part removed
//   state.json   the ports of the latest run and the pid of a running `npm start`
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The folder's location: COMPUTE_TOOLKIT_START_DIR, else .start/ in the repository. */
export function startRoot(repoRoot, env = process.env) {
  return path.resolve(env.COMPUTE_TOOLKIT_START_DIR || path.join(repoRoot, '.start'));
}

export function startPaths(root) {
  return {
    root,
    workspace: path.join(root, 'workspace'),
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    logs: path.join(root, 'logs'),
    run: path.join(root, 'run'),
    state: path.join(root, 'state.json'),
  };
}

/**
 * Creates dir by calling seed(tmpDir) on a sibling temporary folder and renaming it into place, only
 * when dir does not exist yet. An existing dir is left exactly as it is (edited or deleted files
 * included). Returns whether it seeded.
 */
export function seedOnce(dir, seed) {
  if (fs.existsSync(dir)) return false;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const staging = fs.mkdtempSync(`${dir}.seeding-`);
  try {
    seed(staging);
    fs.renameSync(staging, dir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return true;
}

/** Writes text to file only when the file does not exist (the user may have changed it). Returns whether it wrote. */
export function writeIfAbsent(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if (error && error.code === 'EEXIST') return false;
    throw error;
  }
}

export function readState(file) {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

export function writeState(file, state) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

/** Whether pid names a live process (a stale pid from a crashed run does not). */
export function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Whether pid is a running `npm start` (scripts/start.mjs): alive, and where /proc shows command lines,
 * running that script (after a crash the recorded pid may have been reused by another program).
 */
export function isStartRunning(pid, procDir = '/proc') {
  if (!isAlive(pid)) return false;
  let cmdline;
  try {
    cmdline = fs.readFileSync(path.join(procDir, String(pid), 'cmdline'), 'utf8');
  } catch {
    return true; // no /proc here: a live pid is the best evidence there is
  }
  return cmdline.split('\0').some((arg) => arg.endsWith('start.mjs'));
}

/** Whether 127.0.0.1:port can be listened on right now. */
export function isPortFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port to listen on: `preferred` when it is free (so the browser keeps its address and its per-origin
 * state), else a free one from freePort() that is not `avoid` (the sandbox must not come back on the
 * port of the previous run: the extension reconnects only when the address changes).
 */
export async function pickPort({ preferred, avoid, freePort, isFree = isPortFree, attempts = 20 }) {
  if (Number.isInteger(preferred) && preferred > 0 && preferred !== avoid && (await isFree(preferred))) return preferred;
  for (let i = 0; i < attempts; i += 1) {
    const port = await freePort();
    if (port !== avoid) return port;
  }
  throw new Error(`no free port other than ${avoid} after ${attempts} attempts`);
}

/** Keeps a log that grows across runs bounded: past maxBytes it becomes <file>.old (replacing the previous one). */
export function rotateLog(file, maxBytes = 5 * 1024 * 1024) {
  try {
    if (fs.statSync(file).size > maxBytes) fs.renameSync(file, `${file}.old`);
  } catch (error) {
    if (!error || error.code !== 'ENOENT') throw error;
  }
}

/** Removes the current run's files and nothing else; the workspace, user data and logs stay. */
export function removeRunFiles(paths) {
  fs.rmSync(paths.run, { recursive: true, force: true });
}
