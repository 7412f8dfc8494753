// Sign Request, Send Signed Request, Measure Clock Skew, and Show Logs.

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { SignRequestController } from '../signRequest/signRequestController';
import type { Services } from '../extensionServices';
import type { CommandEntry } from './commandTable';

export const requestCommands: readonly CommandEntry<Services>[] = [
  {
    id: Commands.requestSign,
    doing: vscode.l10n.t('Sign the request'),
    create: (services) => {
      const controller = new SignRequestController(services);
      return (argument?: unknown) => controller.sign(argument);
    },
  },
  {
    id: Commands.requestSend,
    doing: vscode.l10n.t('Send the signed request'),
    create: (services) => {
      const controller = new SignRequestController(services);
      return (argument?: unknown) => controller.send(argument);
    },
  },
  {
    id: Commands.requestMeasureClockSkew,
    doing: vscode.l10n.t('Measure clock skew'),
    create: (services) => {
      const controller = new SignRequestController(services);
      return () => controller.measureClockSkew();
    },
  },
  {
    id: Commands.showLogs,
    doing: vscode.l10n.t('Show the logs'),
    create: (services) => () => services.logChannel.show(true),
  },
];
