// The words of the core's own messages, as message keys with their English template. A core error
// carries a key and its parameters (`coreText(...)`): its `message` is the English text filled in here
// (the log, the MCP server and the agent tools read that, their readers are models), and the editor
// words the same key in the display language by looking its English template up in the one string
// bundle (l10n/bundle.l10n.<lang>.json): `npm run l10n:export` (scripts/l10n-export.mjs) adds every
// template here to l10n/bundle.l10n.json, so a new message is one line here plus its translation.
// Templates use numbered placeholders ({0}); a parameter is never a secret value (a token, a key's
// text): only names, counts, lengths, labels a PEM line declares, addresses without credentials.

export const CORE_MESSAGES = {
  // Which key slot a message is about (core/compute/keyInput.ts roleName).
  'role.private': 'client private key',
  'role.public': 'platform public key',

  // What the user pasted as a key (core/compute/keyInput.ts).
  'key.opensshLineForPrivate': 'The client private key is an OpenSSH public key line ({0} AAAA…), not a private key.',
  'key.opensshLineForPrivate.hint': 'Paste the private half of your pair (BEGIN PRIVATE KEY); the public half is what you upload in the console.',
  'key.opensshLineForPublic': 'The platform public key is an OpenSSH public key line (ssh-rsa AAAA…), which the platform does not use.',
  'key.opensshLineForPublic.hint': 'Convert it to PEM with: ssh-keygen -f key.pub -e -m pem (or -m pkcs8 for BEGIN PUBLIC KEY), then paste the result.',
  'key.putty': 'The {0} is a PuTTY key file (.ppk), which the platform does not use.',
  'key.putty.hint': 'Convert it with: puttygen key.ppk -O private-openssh -o key.pem (or PuTTYgen → Conversions → Export OpenSSH key), then use key.pem.',
  'key.ssh2': 'The {0} is an SSH2 (RFC 4716) public key, which the platform does not use.',
  'key.ssh2.hint': 'Convert it with: ssh-keygen -i -m RFC4716 -f key.pub > key.openssh, then ssh-keygen -f key.openssh -e -m pem.',
  'key.binary': 'The {0} is binary data, not text: probably a DER key file read as text.',
  'key.binary.hint': 'Import the file with "Import Private Key from File" (it reads DER), or convert it with: openssl pkey -inform DER -in key.der -out key.pem.',
  'key.plainText': 'The {0} is plain text (words and punctuation), not a key.',
  'key.asExported.hint': 'Paste the key exactly as exported: a PEM block from its BEGIN line to its END line, or only its Base64 body.',
  'key.empty': 'The {0} is empty.',
  'key.empty.hint.private': 'Paste the PEM private key (the block that starts with a BEGIN PRIVATE KEY line) or its bare Base64 body, or generate a new key pair.',
  'key.pastePlatformKey.hint': 'Paste the platform public key the console showed when the RSA-mode key was created.',
  'key.tooLong': 'The {0} is {1} characters long: longer than any RSA key (at most {2}).',
  'key.oneKey.hint': 'Paste one key only: a PEM block from its BEGIN line to its END line, or only its Base64 body.',
  'key.noEnd': 'The {0} has a "BEGIN {1}" line but no matching "END {1}" line: it was cut off while copying.',
  'key.noEnd.hint': 'Copy the whole block, from the BEGIN line through the END line.',
  'key.encryptedPem': 'The {0} is encrypted with a passphrase ({1}); requests are signed unattended, so the key must be unencrypted.',
  'key.encrypted': 'The {0} is encrypted with a passphrase; requests are signed unattended, so the key must be unencrypted.',
  'key.decrypt.hint': 'Decrypt it once with: openssl pkey -in encrypted.pem -out key.pem (enter the passphrase), then store key.pem here.',
  'key.openssh': 'The {0} is in OpenSSH format (BEGIN OPENSSH PRIVATE KEY), which the platform does not use.',
  'key.openssh.hint': 'Convert an RSA key with: ssh-keygen -p -m PKCS8 -f <file> (rewrites the file in place: copy it first), or generate a new 2048-bit pair.',
  'key.certificate': 'The {0} is an X.509 certificate (BEGIN {1}), not a key.',
  'key.certificate.hint.public': 'Paste the bare public key the console showed (BEGIN PUBLIC KEY); to extract one from a certificate: openssl x509 -pubkey -noout -in cert.pem.',
  'key.certificate.hint.private': 'Paste the private key (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY).',
  'key.csr': 'The {0} is a certificate signing request (BEGIN {1}), not a key.',
  'key.csr.hint': 'Paste the key itself.',
  'key.unsupportedBlock': 'The {0} is a "BEGIN {1}" block, which is not a supported key format.',
  'key.unsupportedBlock.hint.private': 'Use a PKCS#8 (BEGIN PRIVATE KEY) or PKCS#1 (BEGIN RSA PRIVATE KEY) RSA key.',
  'key.unsupportedBlock.hint.public': 'Use an SPKI (BEGIN PUBLIC KEY) or PKCS#1 (BEGIN RSA PUBLIC KEY) RSA key.',
  'key.publicForPrivate': 'This is a public key, but the client private key belongs here.',
  'key.publicForPrivate.hint': 'Paste the private half of your pair (BEGIN PRIVATE KEY). The public half is what you upload in the console; the platform public key goes into its own slot.',
  'key.privateForPublic': 'This is a private key, but the platform public key belongs here.',
  'key.privateForPublic.hint': 'Paste the platform public key the console showed when the RSA-mode key was created (BEGIN PUBLIC KEY). Your private key goes into the private-key slot and is never shared.',
  // "a DSA key", "an EC key": the article follows the type's sound, so the two are two sentences.
  'key.nonRsa.a': 'The {0} is a {1} key; the platform signs and encrypts with RSA only.',
  'key.nonRsa.an': 'The {0} is an {1} key; the platform signs and encrypts with RSA only.',
  'key.nonRsa.hint.private': 'Generate a 2048-bit RSA pair (Compute: Generate Key Pair, or openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048).',
  'key.nonRsa.hint.public': 'Paste the RSA public key the console showed when the RSA-mode key was created.',
  'key.emptyBlock': 'The {0} has an empty key block.',
  'key.emptyBlock.hint': 'Copy the lines between BEGIN and END too.',
  'key.what.it': 'it',
  'key.what.block': 'the body of the {0} block',
  'key.badBase64': 'The {0} is neither a PEM block nor valid Base64 ({1} has an unexpected character).',
  'key.badBase64At': 'The {0} is neither a PEM block nor valid Base64 ({1} has an unexpected character at position {2}).',
  'key.badBase64.hint': 'Paste the key exactly as exported: a PEM block, or only its Base64 body.',
  'key.truncatedBase64': 'The {0} looks truncated: {1} has {2} Base64 characters, not a multiple of 4.',
  'key.copyAgain.hint': 'Copy the key again, completely.',
  'key.notDer': 'The {0} decodes to {1} bytes that are not a DER-encoded key.',
  'key.notDer.hint': 'Check that you pasted a key and not another Base64 value (a token, a signature, a certificate fingerprint).',
  'key.truncatedDer': 'The {0} is truncated: its structure declares {1} bytes but only {2} are present.',
  'key.truncatedDer.hint': 'Copy the key again, completely (every line up to the END line).',
  'key.trailingBytes': 'The {0} has {1} unexpected bytes after the key.',
  'key.trailingBytes.hint': 'Paste one key only, exactly as exported.',

  // Whether the key is usable (core/compute/keys.ts).
  'key.invalidPrivateBlock': 'The {0} block is not a valid {1} key.',
  'key.invalidPrivateBlock.hint': 'The block is damaged or was edited; export the key again.',
  'key.invalidPublicBlock': 'The platform public key block is not a valid {0} public key.',
  'key.invalidPublicBlock.hint': 'The block is damaged or was edited; copy it from the console again.',
  'key.notRsaDer.private': 'The client private key decodes to {0} bytes of DER that are not an RSA private key in any supported encoding.',
  'key.notRsaDer.public': 'The platform public key decodes to {0} bytes of DER that are not an RSA public key in any supported encoding.',
  'key.notRsaDer.hint.private': 'Accepted: PKCS#8 PEM (BEGIN PRIVATE KEY), PKCS#1 PEM (BEGIN RSA PRIVATE KEY), or the bare Base64 of either.',
  'key.notRsaDer.hint.public': 'Accepted: SPKI PEM (BEGIN PUBLIC KEY), PKCS#1 PEM (BEGIN RSA PUBLIC KEY), or the bare Base64 of either.',
  'key.pss': 'The {0} is an RSA-PSS-only key; the platform uses RSA PKCS#1 v1.5.',
  'key.pss.hint': 'Generate a plain RSA key: openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048.',
  'key.tooShort': 'The {0} is only {1}-bit RSA; keys under {2} bits are refused as breakable.',
  'key.tooShort.hint': 'Generate a 2048-bit RSA pair and register its public key in the console.',

  // A token or API key that no request header can carry (core/secretValues.ts); never quoted.
  'secret.apiToken': 'API token',
  'secret.modelApiKey': 'model API key',
  'secret.pem': 'This is a PEM key, not the {0}.',
  'secret.lineBreak': 'The {0} contains a line break (CR or LF), which no request can carry: copy it again, without the line break.',
  'secret.space': 'The {0} contains a space or tab: copy it again.',
  'secret.nonAscii': 'The {0} contains a character that is not printable ASCII: copy it again.',
  'secret.storeAgain.hint': 'Store the {0} again.',
  'key.shortWarning': 'The {0} is {1}-bit RSA; the platform recommends {2} bits. It works, but replace it at the next rotation.',

  // Signing and encryption (core/compute/signing.ts, encryption.ts).
  'sign.notString': 'The {0} to sign must be a string, got {1}.',
  'sign.lineBreak': 'The {0} contains a line break, which would corrupt the string to sign.',
  'sign.lineBreak.hint': 'Paste the API token again without a trailing newline.',
  'sign.path': 'The path to sign must start with "/" (got "{0}").',
  'sign.length': 'The signature is {0} bytes; a {1}-bit key must give {2}.',
  'body.notJson': 'A request body must be JSON-serializable (got {0}).',
  'body.needsPublicKey': 'Body encryption needs the platform public key, not a private key.',
  'body.tooLarge': 'The request body is over {0} KiB, the most this extension sends in one request.',
  'body.tooManyValues': 'The request body holds too many values: this extension sends at most {0} in one request.',
  'body.tooLarge.hint': 'Keep large data (files, long scripts, many values) on a volume or in the image and pass its path instead.',

  // A request's credentials (core/compute/request.ts) and the client's settings (client.ts).
  'request.noToken': 'No API token is set for this profile.',
  'request.noToken.hint': 'Set the API token the console showed when the key was created.',
  'request.unknownMode': 'Unknown key mode "{0}".',
  'request.unknownMode.hint': 'Choose token mode or RSA mode, as the key was created in the console.',
  'request.encryptNeedsRsa': '{0} needs an encrypted body, which only RSA-mode keys can send; this profile uses a token-mode key.',
  'request.encryptNeedsRsa.hint': 'Create an RSA-mode key in the console (upload your public key) and use it in an RSA-mode profile.',
  'request.thisRequest': 'This request',
  'request.noPrivateKey': 'RSA mode needs the client private key, and none is set for this profile.',
  'request.noPrivateKey.hint': 'Import or generate a private key.',
  'request.noPlatformKey': '{0} needs the platform public key to encrypt the body, and none is set for this profile.',
  'request.ownKeyInPlatformSlot': "The platform public key slot holds your own public key; bodies must be encrypted with the platform's key.",
  'request.ownKeyInPlatformSlot.hint': 'Paste the platform public key the console showed at key creation (not the one you uploaded).',
  'client.baseUrlQuery': 'The compute base URL must not contain a query or fragment ({0}).',
  'client.versionType': 'The interface version must be the string "{0}", not a {1}.',
  'client.versionType.hint': 'An unquoted 1.0 or 1 in settings becomes a number; write "1.0.0".',

  // Addresses (core/http/url.ts): shown without credentials (urlForDisplay).
  'url.invalid': '"{0}" is not a valid URL.',
  'url.invalid.hint': 'Use a full address such as https://openapi.suanli.cn (scheme and host included).',
  'url.notHttp': '"{0}" is not an http(s) address.',
  'url.scheme': 'The URL scheme "{0}" is not supported ({1}).',
  'url.useHttps.hint': 'Use an https:// address.',
  'url.credentials': 'The URL for {0} contains a user name or password.',
  'url.credentials.hint': 'Remove the credentials from the URL; tokens and keys belong in the profile secrets.',
  'url.plainHttp': 'Refusing plain http to {0}: the API token and signatures would travel unencrypted.',
  'url.plainHttp.hint': 'Use https://, or a loopback address (127.0.0.1, ::1, localhost) for a local sandbox.',

  // A request's parameters (core/compute/operations.ts): Sign Request and every call check them.
  'op.unknown': 'Unknown compute operation "{0}".',
  'op.badQueryCharacter': 'A query parameter contains an invalid character (an unpaired surrogate).',
  'op.pathSlash': 'A request path must start with "/" (got "{0}").',
  'op.queryInPath': 'Give query parameters separately, not inside the path ("{0}").',
  'op.noEncryption': '{0} does not take an encrypted body.',
  'op.noEncryption.hint': 'Send it without encryption.',
  'op.needsEncryption': '{0} requires an encrypted body.',
  'op.method': 'Unsupported method "{0}"; the platform uses GET and POST.',
  'op.getBody': 'A GET request carries no body; put the parameters in the query.',
  'op.encryptNoBody': 'Encryption needs a body to encrypt.',
  'op.queryPairs': 'Query parameters must be [name, value] string pairs.',
  'op.paramsObject': '{0}: parameters must be an object.',
  'op.required': '{0}: "{1}" is required.',
  'op.string': '{0}: "{1}" must be a string.',
  'op.notEmpty': '{0}: "{1}" must not be empty.',
  'op.integer': '{0}: "{1}" must be an integer (got {2}).',
  'op.number': '{0}: "{1}" must be a number.',
  'op.array': '{0}: "{1}" must be a non-empty array.',
  'op.unknownParameters': '{0}: unknown parameter {1}.',
  'op.unknownParameters.hint': 'Use the generic signed request for parameters the catalog does not know.',

  // A chat request (core/inference/requestBody.ts, exchange.ts).
  'chat.noModel': 'No model selected',
  'chat.noModel.hint': 'Pick a chat model (ids look like <vendor>/<model>).',
  'chat.noMessages': 'A chat request needs at least one message',
  'chat.badMessage': 'Message {0} is not a {role: system|user|assistant|tool, content: string} object',
  'chat.toolResultWithoutId': 'Message {0} is a tool result without a tool_call_id',
  'chat.badToolName': 'The tool name "{0}" is not accepted by the model API',
  'chat.badToolName.hint': 'Tool names may use only letters, digits, _ and - (at most 64).',
  'chat.maxTokens': 'max_tokens must be a whole number ≥ 1 (got {0})',
  'chat.temperature': 'temperature must be a number from 0 to 2 (got {0})',
  'chat.noModelKey': 'No model API key is set for this profile.',
  'chat.noModelKey.hint': 'Set the model API key (Bearer key from the platform console) for the active profile.',

  // Run on GPU (core/jobs/runOnGpu.ts).
  'job.resourceGone': '{0} is no longer offered in {1}.',
  'job.resourceGone.hint': 'Run on GPU again and pick another resource.',
  'job.stoppedFollowing': 'Stopped following job {0}; it keeps running on the platform.',

  // Run on GPU's settings file (core/jobs/runConfig.ts): {0} is its path, {1} the field.
  'run.theFile': 'the file',
  'run.tooLarge': '{0}: {1} is larger than {2} characters',
  'run.notJson': '{0}: {1} is not valid JSON',
  'run.version': '{0}: {1} must be 1',
  'run.tooManyEnv': '{0}: {1} has more than 64 entries',
  'run.envName': '{0}: {1} is not a valid variable name',
  'run.envSecret': '{0}: {1} looks like a secret: run.json is shared with the workspace, keep secrets out of it',
  'run.parallelism': '{0}: {1} must not exceed completions',
  'run.estimated': '{0}: {1} must be below timeoutSec',
  'run.object': '{0}: {1} must be an object',
  'run.array': '{0}: {1} must be an array',
  'run.string': '{0}: {1} must be a string',
  'run.length': '{0}: {1} must be {2}–{3} characters',
  'run.control': '{0}: {1} holds control characters',
  'run.wholeNumber': '{0}: {1} must be a whole number from {2} to {3}',
  'run.boolean': '{0}: {1} must be true or false',
  'run.folder': '{0}: {1} must be a path inside the workspace',
  'run.absolute': '{0}: {1} must be an absolute path without ".."',
  'run.target': '{0}: {1} must be "job" or "machine"',
  'run.machineDir': '{0}: {1} must name a folder under the machine\'s home',
  'run.otherTarget': '{0}: {1} must hold the settings of the other target (a job beside a machine run, or a machine run beside a job)',

  // Bare-metal machines (core/machines: connect.ts, sshConfig.ts, launcher.ts, machineService.ts).
  'machines.hostKeyChanged': 'The machine at {0} presented host key {1}, not the pinned {2}. The machine may have been reinstalled, or someone is in between; nothing was sent.',
  'machines.hostKeyType': 'The machine presented a host key of an unknown type.',
  'machines.publicKey': 'The public key is not one OpenSSH line (ssh-ed25519, ssh-rsa or ecdsa).',
  'machines.installFailed': 'Installing the key on machine {0} failed (exit {1}).',
  'machines.noPassword': 'Machine {0} has no key installed yet and the platform gave no password for a first login.',
  'machines.configPath': 'This path cannot be written into an ssh config (quotes or line breaks): {0}',
  'machines.badAlias': '"{0}" cannot be an ssh Host name.',
  'machines.badHost': 'The machine address from the platform is not a host name or IP address.',
  'machines.badPort': 'The machine SSH port from the platform is not a port number.',
  'machines.badUser': 'The machine login name from the platform cannot be used in an ssh config.',
  'machines.badHostKey': 'The pinned host key is not one key line.',
  'machines.groupEmpty': 'A group run needs at least one machine.',
  'machines.groupNoInnerIp': 'A machine of the group has no inner IP yet (is every machine Serving?).',
  'machines.rendezvousPort': 'The rendezvous port is not a port number.',
  'machines.nprocPerNode': 'Processes per machine must be a whole number, at least 1.',
  'machines.noCommand': 'The group run has no command.',
  'machines.notServing': 'Machine {0} is {1}, not Serving yet: its login exists only once it is Serving (Proxy and Direct machines take about 30 minutes).',
  'machines.rentalEnded': 'The rental of machine {0} has ended: it can no longer be reached.',
  'machines.priceChanged': 'The price of machine {0} changed to {1} points per {2} pack since it was shown; nothing was ordered. Review the new price and rent again.',
  'machines.neverServing': 'Machine {0} did not become Serving in the time allowed ({1}); it is still {2}. Nothing was connected.',
  'machines.ownKeyUnreadable': 'The private key {0} cannot be read as an SSH key. Pick another key, or let Compute Toolkit generate one for this machine.',
  'machines.notConnected': 'Machine {0} has no key installed from this editor yet: run Connect… on it first.',
  'machines.masterPortBusy': 'Port {0}, which your command names for the rendezvous, is in use on rank 0. Free it, or take --master_port out of the command and a free port is picked.',
  'machines.noFreePort': 'No port from {0} to {1} is free on rank 0 for the rendezvous. Name a free one in the command (--master_port=N).',
  'machines.ownKeyPassphrase': 'The private key {0} is protected by a passphrase: enter it to use the key.',
  'machines.ownKeyWrongPassphrase': 'The passphrase does not open the private key {0}. Nothing was sent; try again with the right passphrase.',
  // The user's SSH agent (core/ssh/agent.ts).
  'ssh.agentUnreachable': 'The SSH agent at {0} does not answer. Start it (eval "$(ssh-agent)", then ssh-add your key) and start VS Code from that shell, or unlock your key agent; then connect again.',
  'ssh.agentKeyMissing': 'The SSH agent no longer holds the key {0} installed on this machine. Add it with ssh-add (or unlock it in your key agent), then connect again.',
  'ssh.agentNotSet': 'Machine {0} logs in through your SSH agent, but VS Code was started without SSH_AUTH_SOCK. Start the agent and ssh-add your key, start VS Code from that shell, then connect again.',
  // NAS volumes (core/nas/sessions.ts, toolAccess.ts).
  'nas.sessionFailed': 'The platform could not open an SFTP session for volume {0}: {1}',
  'nas.sessionPending': 'The SFTP session for volume {0} is still being provisioned; try again in a minute.',
  'nas.s3CheckFailed': 'The object storage connection check failed: {0}',
  'nas.s3CheckFailed.hint': 'Check the endpoint, bucket, prefix and access keys.',
  'nas.mountMissing': 'NAS volume {0} does not exist on this account.',
  'nas.mountOtherRegion': 'NAS volume {0} is in {1}, the task runs in {2}: a volume mounts only in its own region.',
  'nas.mountNotActive': 'NAS volume {0} is {1}, not Active: only an Active volume mounts.',
  'nas.mountPick.hint': 'Choose an Active volume in {0}, or a GPU in the volume\'s region. Nothing was uploaded or created.',
  'nas.badSftpAddress': 'The platform gave an SFTP address that is not host:port ("{0}").',
  'nas.noFolder': 'No folder is open: files are uploaded from the open folder only.',
  'nas.outsideFolder': '{0} is outside the open folder; files are uploaded from it only.',
  'nas.outsideFolder.hint': 'Give a path relative to the open folder.',
  'nas.notFound': '{0} does not exist in the open folder.',
  'nas.notFile': '{0} is not a file (one file at a time; folders: Upload to Volume… in the editor).',
  // Names and walks on a volume (core/nas/entryNames.ts, remoteWalk.ts, remoteTree.ts).
  'nas.outsideDestination': 'The volume lists {0}, which would be written outside {1}; it was not written.',
  'nas.listingTooLong': 'The folder {0} on the volume lists more than {1} entries; stopped reading it.',
  'nas.walkTooMany': 'The folder {0} on the volume holds more than {1} entries in all; stopped before changing anything. Work on a smaller folder.',
  'nas.walkTooDeep': 'The folder {0} on the volume is nested deeper than {1} levels (at {2}): a folder chain that does not end? Stopped before changing anything.',
  'nas.folderNotEmpty': 'The folder is not empty: {0}',
  'nas.copyIntoItself': 'The folder {0} cannot be copied into itself.',
  'nas.deleteUnsafeNames': 'The folder {0} holds {1} entries whose names cannot be used safely (shown in the warning); nothing was deleted.',

  // The Compare with a Failing Request document's explanations and notes (core/requests/signCompare.ts,
  // signCompareFields.ts): not errors, but the same way to word core text. Parameters are counts, field
  // names and short masked excerpts the comparison already cut.
  'compare.field.path': 'path',
  'compare.field.version': 'version',
  'compare.field.timestamp': 'timestamp',
  'compare.field.token': 'token',
  'compare.field.body': 'body',
  'compare.field.separator': 'separator',
  'compare.none': '(none)',
  'compare.theToken': '(the token)',
  'compare.separator.crlf': 'The fields are separated by CR LF ("\\r\\n", Windows line ends); the platform joins them with LF ("\\n") alone.',
  'compare.separator.escaped': 'The fields are joined by the two characters "\\" and "n" (an escaped newline printed literally); join them with a real line feed.',
  'compare.fieldCount.one': 'The string has {0} field; it must have five (path, version, timestamp, token, body) with all four separators, even when the body is empty (the string then ends with a line feed).',
  'compare.fieldCount': 'The string has {0} fields; it must have five (path, version, timestamp, token, body) with all four separators, even when the body is empty (the string then ends with a line feed).',
  'compare.fieldOrder': 'Field {0} holds the {1} where the {2} belongs: the order is path, version, timestamp, token, body.',
  'compare.header.missing': 'The "{0}" header is missing.',
  'compare.header.name': 'The header is named "{0}"; the platform reads "{1}".',
  'compare.header.unexpected': 'The request carries a signature, but this profile is in token mode: the key was created in the other mode, or the profile is.',
  'compare.note.truncated': 'Only the first {0} characters were compared.',
  'compare.note.empty': 'Nothing was pasted.',
  'compare.note.shellVariables': 'Values that are shell variables ($…) were not compared.',
  'compare.note.reply': 'The server\'s reply: code {0}, message "{1}".',
  'compare.note.reply.hint': 'A reply says that the request failed, not where it differs: paste the string to sign, the headers or the curl command of that request to compare them field by field.',
  'compare.note.signatureAlone': 'A signature alone cannot be compared: it changes with every timestamp. Paste the string that was signed to compare it.',
  'compare.note.urlSafe': 'This signature uses URL-safe Base64 ("-" and "_"); the platform expects standard Base64 ("+" and "/").',
  'compare.note.signatureBytes': 'It decodes to {0} bytes; an RSA signature is as long as the key (256 bytes for 2048 bits).',
  'compare.path': 'The path differs: the first field is the path exactly as requested, starting with "/", without scheme or host.',
  'compare.query.doubleEncoded': 'The query is encoded twice ("%25" is an escaped "%"): encode each name and value exactly once.',
  'compare.query.escapeCase': 'The query uses lower-case %-escapes (e.g. %2f); the request sends upper-case ones (%2F), and the signature covers the exact bytes.',
  'compare.query.plus': 'The query encodes spaces as "+" (form encoding); the request sends "%20".',
  'compare.query.order': 'The query parameters are the same but in another order (sorted or reordered): sign them in the order they are sent.',
  'compare.query.unencoded': 'The query has the same values but encoded differently (unencoded characters such as spaces, "/" or non-ASCII): sign the query exactly as it is sent, %-encoded.',
  'compare.query.value': 'The query differs in a parameter or value.',
  'compare.version.numeric': 'The version is "{0}", what a number 1 or 1.0 turns into; it must be the string "{1}" in the header and the string to sign.',
  'compare.version.value': 'The version must be exactly "{0}" (no quotes or spaces).',
  'compare.timestamp.seconds': 'The timestamp has 10 digits (seconds); the platform expects 13 digits (milliseconds since 1970).',
  'compare.timestamp.format': 'The timestamp must be 13 digits (milliseconds since 1970), with nothing around it.',
  'compare.timestamp.old': 'The timestamp is {0} minutes old: the platform accepts it only within 5 minutes (and once). Sign again for a fresh one.',
  'compare.timestamp.future': 'The timestamp is {0} minutes in the future: the platform accepts it only within 5 minutes (and once). Sign again for a fresh one.',
  'compare.token.whitespace': 'The token has spaces or a line break around it: sign and send it exactly, without whitespace.',
  'compare.token.bearer': 'The token carries a "Bearer " prefix: the token header and the string to sign hold the bare token.',
  'compare.token.value': 'The token is another one than this profile\'s: check which key the request used.',
  'compare.body.emptyObject': 'The body field is {0}; a request without a body signs an empty field (the string ends with the separator), never {} or null.',
  'compare.body.missing': 'The body field is empty, but the request sends a body: sign the exact body text.',
  'compare.body.trailingNewline': 'The body ends with a line break that is not sent: sign the body exactly as sent.',
  'compare.body.encrypted': 'The body is encrypted: sign the Base64 ciphertext as sent, not the JSON.',
  'compare.body.jsonWhitespace': 'The body is the same JSON with other whitespace: sign the compact JSON exactly as sent (no spaces or line breaks).',
  'compare.body.keyOrder': 'The body has the same keys and values in another order: sign the body text exactly as sent.',
  'compare.body.value': 'The body differs in content.',
  // A length of time (core/duration.ts): the two largest units, the second padded; the editor words them.
  'duration.seconds': '{0} s',
  'duration.minutes': '{0} min',
  'duration.minutesSeconds': '{0} min {1} s',
  'duration.hours': '{0} h',
  'duration.hoursMinutes': '{0} h {1} min',
  'duration.days': '{0} d',
  'duration.daysHours': '{0} d {1} h',
  'duration.underMinute': '< 1 min',
  'duration.over': 'over {0} d',
  'duration.unknown': 'unknown time',
} as const satisfies Record<string, string>;

export type CoreMessageKey = keyof typeof CORE_MESSAGES;

/** A parameter: a name, a number, or another message (the key slot's name) worded the same way. */
export type CoreArg = string | number | CoreText;

/** A message key with its parameters: what a core error says, in no language yet. */
export interface CoreText {
  readonly key: CoreMessageKey;
  readonly args: readonly CoreArg[];
}

export function coreText(key: CoreMessageKey, ...args: CoreArg[]): CoreText {
  return { key, args };
}

/** Whether `value` is a message this table words (read structurally: it may come from another copy of the core). */
export function isCoreText(value: unknown, depth = 0): value is CoreText {
  if (typeof value !== 'object' || value === null || depth > 3) return false;
  const { key, args } = value as { key?: unknown; args?: unknown };
  return (
    typeof key === 'string' &&
    Object.hasOwn(CORE_MESSAGES, key) &&
    Array.isArray(args) &&
    args.every((arg) => typeof arg === 'string' || typeof arg === 'number' || isCoreText(arg, depth + 1))
  );
}

/** Fills `template`'s {n} placeholders with `args` (the same rule as vscode.l10n.t). */
export function fillTemplate(template: string, args: readonly string[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => args[Number(index)] ?? whole);
}

/** Words a template with its (already worded) parameters: vscode.l10n.t on the editor, fillTemplate in English. */
export type Translate = (template: string, args: readonly string[]) => string;

/** A core message worded by `translate`; its parameters that are messages themselves are worded first. */
export function wordText(text: CoreText, translate: Translate): string {
  return translate(CORE_MESSAGES[text.key], text.args.map((arg) => (typeof arg === 'object' ? wordText(arg, translate) : String(arg))));
}

/** The English text of a core message: what its error's `message` says, for the log and the agents. */
export function englishText(text: CoreText): string {
  return wordText(text, fillTemplate);
}
