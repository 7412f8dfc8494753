// Waiting for a machine's Jupyter server (core/notebooks/machineJupyter.ts untilMachineJupyterAnswers): a
// server that exited ends the wait at once with its log, but a look at the process that did not finish
// (a channel cut or killed under load, no word printed) is no proof of death: the wait goes on. One burner
// run saw "did not start" 1.5 s after a start with an empty log.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { MachineJupyterError, untilMachineJupyterAnswers } from '../../../src/core/notebooks/machineJupyter';
import type { SshConnection } from '../../../src/core/ssh/sshConnection';

/** A port nothing listens on (the server "does not answer yet"). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An SSH connection whose commands answer in turn from `answers` (the liveness look, then the log's tail). */
function scripted(answers: { code: number | null; stdout: string }[]): { connection: SshConnection; commands: string[] } {
  const commands: string[] = [];
  const connection = {
    exec: async (command: string) => {
      commands.push(command);
      const next = answers.shift() ?? { code: 0, stdout: '' };
      return { ...next, signal: next.code === null ? 'KILL' : undefined, stderr: '' };
    },
  } as unknown as SshConnection;
  return { connection, commands };
}

describe('waiting for a machine Jupyter server', () => {
  it('a look that did not finish keeps waiting; a server the machine says is gone ends it with its log', async () => {
    const local = { baseUrl: `http://127.0.0.1:${await closedPort()}`, token: 'a'.repeat(32) };
    const { connection, commands } = scripted([
      { code: null, stdout: '' }, // killed before it printed: unknown
      { code: 0, stdout: 'runs\n' },
      { code: 0, stdout: 'gone\n' },
      { code: 0, stdout: 'Traceback: port in use\n' },
    ]);
    let pauses = 0;
    await assert.rejects(
      untilMachineJupyterAnswers(local, async () => connection, { remotePort: 8888, pid: 4242 }, { looks: 100, pause: async () => void pauses++ }),
      (error: unknown) => error instanceof MachineJupyterError && error.problem === 'start' && error.detail === 'Traceback: port in use',
    );
    assert.equal(pauses, 2, 'the unknown look and the running one each waited');
    assert.match(commands[0] ?? '', /kill -0 4242/);
    assert.match(commands.at(-1) ?? '', /tail -n 15 .*jupyter-8888\.log/);
  });

  it('gives up after its looks even while the process runs', async () => {
    const local = { baseUrl: `http://127.0.0.1:${await closedPort()}`, token: 'a'.repeat(32) };
    const { connection } = scripted([{ code: 0, stdout: 'runs' }, { code: 0, stdout: 'runs' }, { code: 0, stdout: '' }]);
    await assert.rejects(untilMachineJupyterAnswers(local, async () => connection, { remotePort: 8888, pid: 4242 }, { looks: 2, pause: async () => undefined }), MachineJupyterError);
  });
});
