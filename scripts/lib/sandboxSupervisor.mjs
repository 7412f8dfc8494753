// What `npm start` does when the sandbox stops on its own: VS Code keeps running (the user's editors,
// files and chats stay open), the user is told what happened, and a line on the terminal restarts the
// sandbox on the same address. Without a terminal to read from, it says how to get a sandbox again.
import readline from 'node:readline';

/**
 * Watches sandbox (a ChildProcess-like emitter of 'exit'); restart() starts a new one and resolves with
 * it. isStopping() is true while npm start itself is shutting down (then an exit is expected).
 * input is where Enter is read from when interactive.
 */
export function superviseSandbox({ sandbox, restart, say, isStopping, logFile, interactive, input }) {
  let lines;
  const nextLine = (then) => {
    lines ??= readline.createInterface({ input });
    lines.once('line', then);
  };
  const offerRestart = () => nextLine(() => {
    if (isStopping()) return;
    say('restarting the sandbox …');
    restart().then(
      (next) => { say('the sandbox is back.'); watch(next); },
      (error) => {
        say(`the sandbox did not restart: ${error instanceof Error ? error.message : String(error)}; press Enter to try again.`);
        offerRestart();
      },
    );
  });
  const watch = (child) => child.once('exit', (code, signal) => {
    if (isStopping()) return;
    say(`the sandbox stopped (${signal ?? `exit ${code}`}; log: ${logFile}).`);
    say('VS Code keeps running and your files, profiles and chats are kept.');
    if (!interactive) {
      say('to get a sandbox again, stop with Ctrl+C and run npm start again.');
      return;
    }
    say('press Enter here to restart the sandbox; then run "Compute: Connect to Local Sandbox…" in VS Code to pick up its new keys.');
    offerRestart();
  });
  watch(sandbox);
  return { close: () => lines?.close() };
}
