// *Forward Port…* and *Port Forwards* (docs/machines.md): a port on the machine carried to a local port over
// SSH (core/machines/portForward.ts), listed with the machine's public addresses (`expose_ports`:
// pub_ip:mapping_port → machine port) and closable from the list. A forward whose connection drops comes back
// by itself on the same local port (bounded tries); only when it cannot does it say so, with *Forward Again*.

import * as vscode from 'vscode';
import type { PortForward } from '../../../core/machines';
import { machinesCore } from '../../../core/lazyModules';
import { MultiStepInput } from '../../ui/multiStepInput';
import { plain, type NotificationCenter } from '../../ui/notificationCenter';
import type { MachineConnector, MachineTarget } from './machineConnector';

const PORT = /^\d{1,5}$/;
const portOf = (text: string): number | undefined => (PORT.test(text.trim()) && Number(text) >= 1 && Number(text) <= 65535 ? Number(text) : undefined);
const shownHost = (text: string): string => text.replace(/[^0-9A-Za-z.:-]/g, '').slice(0, 64);
/** The waits before each try to bring a dropped forward back (bounded; then the user is told). */
const RESTORE_WAITS_MS = [1_000, 2_000, 4_000];

export class PortForwards implements vscode.Disposable {
  private readonly open: PortForward[] = [];
  private disposed = false;
  /** Each forward's profile (the one it was opened under): its activity is that profile's. */
  private readonly profiles = new WeakMap<PortForward, string>();

  constructor(
    private readonly connector: MachineConnector,
    private readonly center: NotificationCenter,
    /** The one error path (services.reportError): a failed Forward Again. */
    private readonly reportError: (error: unknown, context: string) => void,
  ) {}

  get forwards(): readonly PortForward[] {
    return this.open;
  }

  profileOf(forward: PortForward): string | undefined {
    return this.profiles.get(forward);
  }

  /** The machine's public addresses (pub_ip:mapping_port → machine port). */
  async publicAddresses(deviceId: number): Promise<string[]> {
    const detail = await this.connector.service().detail(deviceId);
    return (detail.expose_ports ?? []).slice(0, 50).map((port) => vscode.l10n.t('{0}:{1} → machine port {2}', shownHost(detail.pub_ip), port.mapping_port, port.local_port));
  }

  /** Forwards `remotePort` (asked when not given) to a free local port (or `localPort`). */
  async forward(target: MachineTarget, remotePort?: number, localPort?: number): Promise<PortForward | undefined> {
    let port = remotePort;
    if (port === undefined) {
      const addresses = await this.publicAddresses(target.deviceId);
      let answer = '';
      const finished = await MultiStepInput.run(async (input) => {
        answer = await input.showInputBox({
          title: vscode.l10n.t('Forward Port on {0}', target.label),
          step: 1,
          totalSteps: 1,
          value: '',
          prompt: addresses.length > 0 ? vscode.l10n.t('The port on the machine (e.g. 6006 for TensorBoard). Public addresses: {0}', addresses.join('; ')) : vscode.l10n.t('The port on the machine (e.g. 6006 for TensorBoard, 8888 for Jupyter)'),
          validate: (value) => (portOf(value) === undefined ? vscode.l10n.t('A port number from 1 to 65535') : undefined),
        });
      });
      if (!finished) return undefined;
      port = portOf(answer);
      if (port === undefined) return undefined;
    }
    const forward = await this.start(target, port, localPort);
    const browse = vscode.l10n.t('Open in Browser');
    void vscode.window.showInformationMessage(vscode.l10n.t('Port {0} on {1} is at 127.0.0.1:{2} here.', port, target.label, forward.localPort), browse).then((choice) => (choice === browse ? vscode.env.openExternal(vscode.Uri.parse(`http://127.0.0.1:${forward.localPort}/`)) : undefined));
    return forward;
  }

  /** Opens the forward over a key-only connection and lists it; a drop brings it back by itself (restore). */
  private async start(target: MachineTarget, remotePort: number, localPort: number | undefined): Promise<PortForward> {
    const profileId = this.connector.store().profileId;
    const { connection } = await this.connector.connectKeyOnly(target.deviceId);
    const forward = await machinesCore().forwardPort({
      deviceId: target.deviceId,
      connection,
      remotePort,
      ...(localPort !== undefined ? { localPort } : {}),
      onClosed: (closed, why) => {
        const index = this.open.indexOf(closed);
        if (index >= 0) this.open.splice(index, 1);
        if (why === 'lost' && !this.disposed) void this.restore(target, closed);
      },
    });
    this.open.push(forward);
    this.profiles.set(forward, profileId);
    return forward;
  }

  /**
   * A forward whose connection dropped comes back by itself on the same local port (a browser tab on it
   * keeps working): RESTORE_WAITS_MS.length tries, each wait longer; a refused login, a changed host key
   * or an ended rental is not tried again. Only when it cannot come back is the user told.
   */
  private async restore(target: MachineTarget, lost: PortForward): Promise<void> {
    for (const wait of RESTORE_WAITS_MS) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.disposed) return;
      try {
        await this.start(target, lost.remotePort, lost.localPort);
        return;
      } catch (error) {
        if (machinesCore().cannotSucceedByRetrying(error)) break;
      }
    }
    if (!this.disposed) this.sayLost(target, lost);
  }

  /** A forward whose connection dropped and could not come back (the machine is down, the rental ended). */
  private sayLost(target: MachineTarget, lost: PortForward): void {
    const again = {
      title: vscode.l10n.t('Forward Again'),
      run: () => this.forward(target, lost.remotePort, lost.localPort).catch((error: unknown) => this.reportError(error, vscode.l10n.t('Forward Port on {0}', target.label))),
    };
    this.center.show('machineForwardLost', 'warning', vscode.l10n.t('The forward of port {0} on {1} (127.0.0.1:{2}) stopped: the connection to the machine was lost.', lost.remotePort, plain(target.label), lost.localPort), [again]);
  }

  /** The open forwards in a pick; the one picked is closed. */
  async showList(): Promise<void> {
    if (this.open.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No port is forwarded to a machine. Use Forward Port… on a Serving machine.'));
      return;
    }
    const items = this.open.map((forward) => ({ label: vscode.l10n.t('127.0.0.1:{0} → machine {1} port {2}', forward.localPort, forward.deviceId, forward.remotePort), description: vscode.l10n.t('Close'), forward }));
    let picked: (typeof items)[number] | undefined;
    const finished = await MultiStepInput.run(async (input) => {
      picked = await input.showQuickPick({ title: vscode.l10n.t('Port Forwards'), items, placeholder: vscode.l10n.t('Pick a forward to close it') });
    });
    if (finished && picked) picked.forward.close();
  }

  dispose(): void {
    this.disposed = true;
    for (const forward of [...this.open]) forward.close();
  }
}
