// The envelope codes the sandbox answers on interface A. The platform publishes the code enum
// (0000, C001–C010, C999, Z001) but not what each one means (docs/platform.md), so this table is
// the sandbox's own reading; clients must not depend on it beyond "0000 = success".
//
// | code | HTTP | when                                                                              |
// |------|------|-----------------------------------------------------------------------------------|
// | 0000 | 200  | success                                                                           |
// | C001 | 200  | header `token` missing or not a key the sandbox issued                            |
// | C002 | 200  | RSA mode: sign_str is not a valid RSA-SHA256 signature of the string to sign       |
// | C004 | 200  | timestamp not 13 digits, outside the 5-minute window of the sandbox clock, or     |
// |      |      | reused for the same token (RSA mode)                                              |
// | C005 | 200  | header `version` missing (RSA mode) or not exactly the string "1.0.0"             |
// | C006 | 200  | encrypted body cannot be decrypted/parsed, encryption required but plain JSON     |
// |      |      | sent, or an encrypted body sent to an operation that takes none                   |
// | C007 | 200  | key mode mismatch: token-mode key on an encrypted operation or with an encrypted  |
// |      |      | body, or an RSA-mode key without sign_str                                         |
// | C008 | 200  | image preheat: the account has not applied for it (every preheat route)           |
// | C010 | 200  | invalid task state transition (pause a non-Running task, recover a non-Paused one,|
// |      |      | stop or change an ended one)                                                      |
// | C999 | 200  | parameter validation failed; the message starts with the field's name            |
// | 404  | 404  | no such path (JSON envelope, as a gateway in front of the platform would answer)  |
// | 405  | 405  | path exists with another method (e.g. POST /api/deployment/task/detail), `Allow`  |
// | C010 | 200  | NAS: volume/transfer in a state that refuses the call (expand non-Active, delete   |
// |      |      | while mounted or transferring without force, stop a non-Running transfer)         |
// | S002 | 200  | NAS transfer list: illegal `statuses` value (the docs name this code)              |
// | Z001 | 500  | the sandbox itself failed (a bug in the test server)                              |

export type FailureCode = 'C001' | 'C002' | 'C004' | 'C005' | 'C006' | 'C007' | 'C008' | 'C010' | 'C999' | 'S002' | '404' | '405' | 'Z001';

export const SUCCESS_CODE = '0000';

/** A rejection the compute handler turns into an envelope with `data: null`. */
export class SandboxFailure extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
    readonly httpStatus = 200,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SandboxFailure';
  }
}

/** Parameter validation failure; the message names the field first so clients can point at it. */
export function invalidParam(field: string, problem: string): SandboxFailure {
  return new SandboxFailure('C999', `${field}: ${problem}`);
}
