// Which order each rented machine belongs to (docs/machines.md "Orders and their machines"). The platform
// links them only partly: a single machine names its `order_id`; a network group's machine names only its
// `order_details_id`, and an order lists `order_details_id` per item of `gpu_models` — per GPU model, so a
// group of three machines of one model may name one of them. Direct links first (order_id, then a details
// id claimed by exactly one order); then a group's other machines join the order one of their group's
// machines is linked to, when the order's pack type and GPU models fit, it has room left (its
// `device_count`, else its GPUs of that model), and exactly one order of the group fits (the same rental
// window decides between two). Anything else stays unlinked: a wrong order is worse than none.
// Everything read here is server data: checked field by field, linear in the orders and machines.

/** What matching reads of a rented machine (machineState.ts's RentedMachine has it all). */
export interface MachineForOrder {
  deviceId: number;
  billingType: string;
  gpuModel: string;
  gpuCount: number;
  startMs: number | undefined;
  endMs: number | undefined;
  group: { networkId: number } | undefined;
  orderId?: number | undefined;
  orderDetailsId?: number | undefined;
}

type RentedMachine = MachineForOrder;

export interface OrderLink {
  orderId: number;
  /** The order's number as listed ('' when the order was not in the list read). */
  orderNo: string;
  /** Matched through its network group rather than named by the platform. */
  inferred: boolean;
}

interface OrderFacts {
  id: number;
  no: string;
  billing: unknown;
  models: Set<string>;
  /** `device_count` when the order carries one. */
  machines: number | undefined;
  /** GPUs per model, the sum of the order's `gpu_models` items. */
  gpus: Map<string, number>;
}

interface Used {
  machines: number;
  gpus: Map<string, number>;
}

/** More orders than this linked inside one network group: its other machines are left unlinked (bounded work). */
const MAX_ORDERS_PER_GROUP = 16;

const isId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const record = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/** The orders by id (the first of a repeated id kept) and which order claims each details id (0: more than one). */
function indexOrders(orders: readonly unknown[]): { byId: Map<number, OrderFacts>; detailOwner: Map<number, number> } {
  const byId = new Map<number, OrderFacts>();
  const detailOwner = new Map<number, number>();
  for (const raw of orders) {
    const order = record(raw);
    if (!order || !isId(order['order_id']) || byId.has(order['order_id'])) continue;
    const facts: OrderFacts = { id: order['order_id'], no: typeof order['order_no'] === 'string' ? order['order_no'] : '', billing: order['billing_type'], models: new Set(), machines: isId(order['device_count']) ? order['device_count'] : undefined, gpus: new Map() };
    for (const rawItem of Array.isArray(order['gpu_models']) ? order['gpu_models'] : []) {
      const item = record(rawItem);
      if (!item) continue;
      if (typeof item['gpu_model'] === 'string') {
        facts.models.add(item['gpu_model']);
        if (isCount(item['gpu_count'])) facts.gpus.set(item['gpu_model'], (facts.gpus.get(item['gpu_model']) ?? 0) + item['gpu_count']);
      }
      const details = item['order_details_id'];
      if (isId(details)) {
        const owner = detailOwner.get(details);
        detailOwner.set(details, owner === undefined || owner === facts.id ? facts.id : 0);
      }
    }
    byId.set(facts.id, facts);
  }
  return { byId, detailOwner };
}

function hasRoom(order: OrderFacts, used: Used | undefined, machine: RentedMachine): boolean {
  if (order.machines !== undefined) return (used?.machines ?? 0) < order.machines;
  const total = order.gpus.get(machine.gpuModel);
  return total !== undefined && isCount(machine.gpuCount) && (used?.gpus.get(machine.gpuModel) ?? 0) + machine.gpuCount <= total;
}

function use(usage: Map<number, Used>, orderId: number, machine: RentedMachine): void {
  const used = usage.get(orderId) ?? { machines: 0, gpus: new Map<string, number>() };
  used.machines += 1;
  if (isCount(machine.gpuCount)) used.gpus.set(machine.gpuModel, (used.gpus.get(machine.gpuModel) ?? 0) + machine.gpuCount);
  usage.set(orderId, used);
}

const windowOf = (machine: RentedMachine): string => `${machine.startMs ?? ''}/${machine.endMs ?? ''}`;

/** Each machine's order by device id (a machine listed twice is matched once, as first listed). */
export function matchOrders(orders: readonly unknown[], machines: readonly RentedMachine[]): Map<number, OrderLink> {
  const { byId, detailOwner } = indexOrders(Array.isArray(orders) ? orders : []);
  const links = new Map<number, OrderLink>();
  const usage = new Map<number, Used>();
  const seen = new Set<number>();
  const unique = machines.filter((machine) => !seen.has(machine.deviceId) && seen.add(machine.deviceId));
  // Direct links: the single machine's order id, else the one order claiming its details id.
  for (const machine of unique) {
    const owner = isId(machine.orderDetailsId) ? detailOwner.get(machine.orderDetailsId) : undefined;
    const orderId = isId(machine.orderId) ? machine.orderId : owner !== undefined && owner !== 0 ? owner : undefined;
    if (orderId === undefined) continue;
    links.set(machine.deviceId, { orderId, orderNo: byId.get(orderId)?.no ?? '', inferred: false });
    use(usage, orderId, machine);
  }
  // A network group's orders as its linked machines show them, with their rental windows.
  const groupOrders = new Map<number, Map<number, Set<string>>>();
  for (const machine of unique) {
    const link = links.get(machine.deviceId);
    if (!machine.group || !link || !byId.has(link.orderId)) continue;
    const orders = groupOrders.get(machine.group.networkId) ?? new Map<number, Set<string>>();
    orders.set(link.orderId, (orders.get(link.orderId) ?? new Set()).add(windowOf(machine)));
    groupOrders.set(machine.group.networkId, orders);
  }
  const sharesWindow = (machine: RentedMachine): boolean => [...(groupOrders.get(machine.group?.networkId ?? -1)?.values() ?? [])].some((windows) => windows.has(windowOf(machine)));
  const rest = unique.filter((machine) => machine.group && !links.has(machine.deviceId) && (groupOrders.get(machine.group.networkId)?.size ?? 0) <= MAX_ORDERS_PER_GROUP);
  // Machines in a window an order's machine has go first: they take that order's room before strangers.
  const ordered = [...rest.filter(sharesWindow), ...rest.filter((machine) => !sharesWindow(machine))];
  for (const machine of ordered) {
    const candidates = [...(groupOrders.get(machine.group?.networkId ?? -1) ?? new Map<number, Set<string>>())].filter(([orderId]) => {
      const order = byId.get(orderId) as OrderFacts;
      return order.billing === machine.billingType && order.models.has(machine.gpuModel) && hasRoom(order, usage.get(orderId), machine);
    });
    const fitting = candidates.length > 1 ? candidates.filter(([, windows]) => windows.has(windowOf(machine))) : candidates;
    if (fitting.length !== 1) continue;
    const [orderId] = fitting[0] as [number, Set<string>];
    links.set(machine.deviceId, { orderId, orderNo: byId.get(orderId)?.no ?? '', inferred: true });
    use(usage, orderId, machine);
  }
  return links;
}

/** The machines with their orders (`order` undefined where none could be told). */
export function withOrders<M extends MachineForOrder>(machines: readonly M[], orders: readonly unknown[]): (M & { order: OrderLink | undefined })[] {
  const links = matchOrders(orders, machines);
  return machines.map((machine) => ({ ...machine, order: links.get(machine.deviceId) }));
}

/** Whether the orders read so far explain the machines: every single's order and one machine of every group. */
export function ordersExplain(orders: readonly unknown[], machines: readonly RentedMachine[]): boolean {
  const links = matchOrders(orders, machines);
  const { byId } = indexOrders(Array.isArray(orders) ? orders : []);
  const explained = (machine: RentedMachine): boolean => byId.has(links.get(machine.deviceId)?.orderId ?? 0);
  const groups = new Map<number, boolean>();
  for (const machine of machines) {
    if (!machine.group) {
      if (!explained(machine)) return false;
      continue;
    }
    groups.set(machine.group.networkId, (groups.get(machine.group.networkId) ?? false) || explained(machine));
  }
  return [...groups.values()].every(Boolean);
}
