// Sign Request, Send Signed Request, Measure Clock Skew, the request debugger (compare, history,
// replay, copy as curl), and Show Logs.

import * as vscode from 'vscode';
import { Commands } from '../commandIds';
import { CompareController } from './compareController';
import { RequestHistoryController } from './requestHistoryController';
import { SignRequestController } from './signRequestController';
import type { ExtensionServices as Services } from '../services';
import type { CommandEntry } from '../commands/commandTable';

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
    id: Commands.requestCompare,
    doing: vscode.l10n.t('Compare with the failing request'),
    create: (services) => {
      const controller = new CompareController(services);
      return (argument?: unknown) => controller.compare(argument);
    },
  },
  {
    id: Commands.requestHistory,
    doing: vscode.l10n.t('Show the request history'),
    create: (services) => {
      const controller = new RequestHistoryController(services);
      return () => controller.show();
    },
  },
  {
    id: Commands.requestReplay,
    doing: vscode.l10n.t('Replay the request'),
    create: (services) => {
      const controller = new RequestHistoryController(services);
      return (argument?: unknown) => controller.replay(argument);
    },
  },
  {
    id: Commands.requestCopyCurl,
    doing: vscode.l10n.t('Copy the request as curl'),
    create: (services) => {
      const controller = new RequestHistoryController(services);
      return (argument?: unknown) => controller.copyCurl(argument);
    },
  },
  {
    id: Commands.showLogs,
    doing: vscode.l10n.t('Show the logs'),
    create: (services) => () => services.showLogs(),
  },
];
