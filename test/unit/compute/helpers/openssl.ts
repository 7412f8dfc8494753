// The OpenSSL command line as an independent implementation to cross-check against.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const OPENSSL = '/usr/bin/openssl';

/** A temp folder for key and data files; `cleanup()` removes it. */
export class OpenSslWorkspace {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ct-openssl-'));
  private counter = 0;

  file(name: string, content: string | Uint8Array): string {
    const target = path.join(this.dir, `${this.counter++}-${name}`);
    fs.writeFileSync(target, content, { mode: 0o600 });
    return target;
  }

  run(args: string[], input?: Uint8Array): Buffer {
    return execFileSync(OPENSSL, args, { input, stdio: ['pipe', 'pipe', 'pipe'] });
  }

  /** `openssl dgst -sha256 -sign` over `data`: the raw signature bytes. */
  sign(privatePemPath: string, data: Uint8Array): Buffer {
    return this.run(['dgst', '-sha256', '-sign', privatePemPath, this.file('data.bin', data)]);
  }

  /** `openssl dgst -sha256 -verify`; true when it prints "Verified OK" (exit 0). */
  verify(publicPemPath: string, data: Uint8Array, signature: Uint8Array): boolean {
    try {
      const out = this.run([
        'dgst', '-sha256', '-verify', publicPemPath, '-signature', this.file('sig.bin', signature), this.file('data.bin', data),
      ]);
      return out.toString().includes('Verified OK');
    } catch {
      return false; // openssl exits 1 with "Verification failure": the answer, not an error
    }
  }

  /** Decrypts one RSA block with PKCS#1 v1.5 padding. */
  decryptBlock(privatePemPath: string, block: Uint8Array): Buffer {
    return this.run(['pkeyutl', '-decrypt', '-inkey', privatePemPath, '-pkeyopt', 'rsa_padding_mode:pkcs1', '-in', this.file('block.bin', block)]);
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
