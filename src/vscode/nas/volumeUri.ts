// A NAS volume's files in the editor: the `computenas` scheme the NAS area registers the SFTP file system
// under (../remoteFiles/sftpFileSystem.ts); the authority is the volume id: computenas://1001/data/train.csv.

import * as vscode from 'vscode';

export const NAS_SCHEME = 'computenas';

export function volumeUri(storageId: number, path = '/'): vscode.Uri {
  return vscode.Uri.from({ scheme: NAS_SCHEME, authority: String(storageId), path });
}
