// The status bar names a profile's key mode once: "Sandbox (RSA)", not "Sandbox (RSA) · RSA".
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statusBarLabel } from '../../../src/vscode/profiles/profileRecord';

describe('statusBarLabel', () => {
  it('leaves out the mode when the label already names it', () => {
    assert.equal(statusBarLabel('Sandbox (RSA)', 'rsa', 'RSA'), 'Sandbox (RSA)');
    assert.equal(statusBarLabel('Sandbox (token)', 'token', 'Token'), 'Sandbox (token)');
    assert.equal(statusBarLabel('rsa-prod', 'rsa', 'RSA'), 'rsa-prod');
    assert.equal(statusBarLabel('沙盒 (令牌)', 'token', '令牌'), '沙盒 (令牌)');
  });

  it('adds the mode when the label does not name it', () => {
    assert.equal(statusBarLabel('Team prod', 'rsa', 'RSA'), 'Team prod · RSA');
    assert.equal(statusBarLabel('Team prod', 'token', '令牌'), 'Team prod · 令牌');
    // "rsa" inside another word is not the mode.
    assert.equal(statusBarLabel('Persaud', 'rsa', 'RSA'), 'Persaud · RSA');
    // A label naming the other mode still gets its own.
    assert.equal(statusBarLabel('Sandbox (RSA)', 'token', 'Token'), 'Sandbox (RSA) · Token');
  });
});
