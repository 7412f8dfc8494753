// Kubernetes-style events of one node (docs/money.md), derived from its lifecycle so
// they line up with the node list: Scheduled when created, image pull and start when it runs,
// BackOff warnings for each restart, Killing when it was deleted for rescheduling.

export interface NodeHistory {
  name: string;
  regionName: string;
  /** Real ms. */
  createdAt: number;
  readyAt: number;
  restarts: readonly { at: number; reason: string }[];
  services: readonly { service_name: string; service_image: string }[];
}

export interface NodeEventView {
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  event_time: string;
  service: string | null;
}

export function nodeEvents(node: NodeHistory, nowMs: number, format: (realMs: number) => string): NodeEventView[] {
  const events: { at: number; event: Omit<NodeEventView, 'event_time'> }[] = [
    { at: node.createdAt, event: { reason: 'Scheduled', message: `Successfully assigned ${node.name} to a node in ${node.regionName}`, type: 'Normal', service: null } },
  ];
  for (const service of node.services) {
    const pullAt = Math.max(node.createdAt, node.readyAt - 1000);
    events.push(
      { at: pullAt, event: { reason: 'Pulling', message: `Pulling image "${service.service_image}"`, type: 'Normal', service: service.service_name } },
      { at: node.readyAt, event: { reason: 'Pulled', message: `Successfully pulled image "${service.service_image}"`, type: 'Normal', service: service.service_name } },
      { at: node.readyAt, event: { reason: 'Started', message: `Started container ${service.service_name}`, type: 'Normal', service: service.service_name } },
    );
  }
  for (const restart of node.restarts) {
    const service = node.services[0]?.service_name ?? null;
    events.push({ at: restart.at, event: { reason: 'BackOff', message: `Back-off restarting failed container: ${restart.reason}`, type: 'Warning', service } });
  }
  return events
    .filter((entry) => entry.at <= nowMs)
    .sort((a, b) => a.at - b.at)
    .map((entry) => ({ ...entry.event, event_time: format(entry.at) }));
}
