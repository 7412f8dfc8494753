// The ssh config writer (core/machines/sshConfig.ts): one Host block per machine with the pinned key,
// nothing from the platform able to add a directive, and the user's config given one Include only.

import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError } from '../../../src/core/errors';
import { includesOurs, machineAlias, renderConfig, userSshConfig, writeMachineConfig, type MachineHostEntry } from '../../../src/core/machines/sshConfig';

const entry: MachineHostEntry = { alias: 'machine-9001', host: '127.0.0.1', port: 2222, user: 'root', identityFile: '/home/me/.ssh/ct/9001.key', hostKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG3' };

describe('ssh config writer', () => {
  it('writes one Host block with the pinned key alias, key-only', () => {
    const text = renderConfig([entry], '/home/me/.ssh/ct/known_hosts');
    assert.match(text, /^Host machine-9001\n {2}HostName 127\.0\.0\.1\n {2}Port 2222\n {2}User root\n {2}IdentityFile "\/home\/me\/\.ssh\/ct\/9001\.key"\n {2}IdentitiesOnly yes\n {2}PasswordAuthentication no\n {2}HostKeyAlias compute-toolkit-machine-9001\n {2}UserKnownHostsFile "\/home\/me\/\.ssh\/ct\/known_hosts"\n {2}StrictHostKeyChecking yes\n/m);
  });

  it('refuses platform values that would add a directive or break a line', () => {
    for (const bad of [
      { host: '1.2.3.4\n  ProxyCommand sh -c evil' },
      { host: '-oProxyCommand=evil' },
      { user: 'root\nHost *' },
      { port: 0 },
      { port: 70000 },
      { alias: 'a b' },
      { alias: '*' },
      { hostKey: 'ssh-ed25519 AAAA\nHost *' },
      { identityFile: '/tmp/a"\n  ProxyCommand evil' },
    ]) {
      assert.throws(() => renderConfig([{ ...entry, ...bad }], '/k'), ConfigError, JSON.stringify(bad));
    }
  });

  it('finds an existing Include of our file, quoted or not, any case', () => {
    assert.equal(includesOurs('Host x\n  User y\ninclude "/a/config"\n', '/a/config'), true);
    assert.equal(includesOurs('Include /a/config\r\n', '/a/config'), true);
    assert.equal(includesOurs('Include /a/config.bak\n# Include /a/config\n', '/a/config'), false);
  });

  it('adds the Include at the top once, keeps the rest byte for byte and its mode, writes 0600 files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssh-config-'));
    try {
      const userConfig = join(dir, 'config');
      const mine = 'Host work\r\n  HostName example.com\r\n';
      writeFileSync(userConfig, mine, { mode: 0o644 });
      const files = { dir: join(dir, 'ct'), userConfig };
      const { config } = await writeMachineConfig(files, [entry]);
      assert.equal(readFileSync(userConfig, 'utf8'), `Include "${config}"\r\n${mine}`);
      assert.equal(statSync(userConfig).mode & 0o777, 0o644);
      assert.equal(statSync(config).mode & 0o777, 0o600);
      await writeMachineConfig(files, [entry, { ...entry, alias: 'machine-9002', port: 2223 }]);
      assert.equal(readFileSync(userConfig, 'utf8'), `Include "${config}"\r\n${mine}`);
      assert.equal(readFileSync(config, 'utf8').match(/^Host /gm)?.length, 2);
      assert.equal(readFileSync(join(files.dir, 'known_hosts'), 'utf8').split('\n').filter(Boolean).length, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("writes through a user config that is a link (a dotfiles manager's): the link stays, its target gains the Include", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssh-config-'));
    try {
      const dotfiles = join(dir, 'dotfiles');
      mkdirSync(dotfiles);
      const target = join(dotfiles, 'ssh_config');
      writeFileSync(target, 'Host work\n', { mode: 0o644 });
      const userConfig = join(dir, 'config');
      symlinkSync(target, userConfig);
      const { config } = await writeMachineConfig({ dir: join(dir, 'ct'), userConfig }, [entry]);
      assert.ok(lstatSync(userConfig).isSymbolicLink(), 'still a link');
      assert.equal(readFileSync(target, 'utf8'), `Include "${config}"\nHost work\n`);
      assert.equal(statSync(target).mode & 0o777, 0o644);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates the user config with only the Include when there is none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ssh-config-'));
    try {
      const userConfig = join(dir, 'ssh', 'config');
      const { config } = await writeMachineConfig({ dir: join(dir, 'ct'), userConfig }, [entry]);
      assert.equal(readFileSync(userConfig, 'utf8'), `Include "${config}"\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names each machine per profile: the same device id under two profiles gets two entries', () => {
    const [a, b] = [machineAlias(9001, 'profile-a'), machineAlias(9001, 'profile-b')];
    assert.notEqual(a, b);
    assert.equal(machineAlias(9001, 'profile-a'), a, 'stable for one profile');
    for (const alias of [a, b]) assert.match(alias, /^compute-machine-9001-[0-9a-f]{8}$/);
    assert.doesNotThrow(() => renderConfig([{ ...entry, alias: a }], '/k'));
  });

  it("puts the Include in Remote-SSH's remote.SSH.configFile when it is an absolute path, else in <ssh dir>/config", () => {
    assert.equal(userSshConfig(undefined, '/home/me/.ssh', '/home/me'), '/home/me/.ssh/config');
    assert.equal(userSshConfig('/etc/ssh/my_config', '/home/me/.ssh', '/home/me'), '/etc/ssh/my_config');
    assert.equal(userSshConfig('~/.ssh/remote_config', '/home/me/.ssh', '/home/me'), '/home/me/.ssh/remote_config');
    for (const ignored of ['', 'relative/config', '/tmp/a"\n Include evil', '/tmp/a\nHost *', 42, ['/x']]) {
      assert.equal(userSshConfig(ignored, '/home/me/.ssh', '/home/me'), '/home/me/.ssh/config', JSON.stringify(ignored));
    }
  });
});
