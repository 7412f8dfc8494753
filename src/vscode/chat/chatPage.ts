// The chat's page in a webview: the options every chat webview gets (scripts on, command links off, no
// retained context, only the extension's dist/webview and media folders) and its HTML shell, built by
// webviews/pageHtml.ts with a fresh nonce, the webview's resource URIs and the localized strings.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { chatPageHtml } from '../webviews/pageHtml';
import { webviewStrings } from './webviewStrings';

/** The editor tab's title and the page's. */
export function chatTitle(): string {
  return vscode.l10n.t('Compute Chat');
}

export function chatWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    retainContextWhenHidden: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export function chatPage(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  return chatPageHtml({
    language: vscode.env.language,
    cspSource: webview.cspSource,
    nonce: randomBytes(18).toString('base64'),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', 'chat.js')).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css')).toString(),
    title: chatTitle(),
    strings: webviewStrings(),
  });
}
