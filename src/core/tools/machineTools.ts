// Bare-metal machine tools (docs/machines.md): search the catalogue, list rented machines with their
// time left, a machine's connection details (never its password), and rent. Renting confirms first with
// the profile (production marked), the total (unit price × packs, × machines for a group) and the
// ~30 minutes Proxy/Direct machines take; it sends the catalogue's unit price, so a price that changed
// since the confirmation is refused by the platform and nothing is ordered.

import { ConfigError } from '../errors';
import { shownText } from '../machines/catalogue';
import { filterCatalogue, maxPacksOf, megabytes, orderTotal, packOfAll, productsOf, rentable, sharedUnitPrice, zoneOf, type CatalogueEntry } from '../machines/catalogueQuery';
import { timeLeftMs } from '../machines/machineState';
import { BILLING_TYPES, type BillingType } from '../machines/operations';
import { formatPoints } from '../spend/units';
import type { z } from 'zod';
import type { ToolContext, ToolDefinition } from './api';
import type * as machineInputs from './inputs/machineInputs';
import { confirmation } from './confirmation';
import { strongestEffect } from './effects';
import { capLines, field, RESULT_LIMIT_CHARS } from './format';
import { machinesOf } from './services';



const billingOf = (input: Record<string, unknown>): BillingType => (BILLING_TYPES.includes(input['billing_type'] as BillingType) ? (input['billing_type'] as BillingType) : 'Hour');

function entryLine(entry: CatalogueEntry, billing: BillingType): string {
  const products = productsOf(entry);
  const first = products[0];
  const total = orderTotal(products, billing, 1);
  const gpus = first ? `${Number.isInteger(first.gpu_count) && first.gpu_count >= 0 ? first.gpu_count : '?'} × ${field(shownText(first.gpu_model), 80)} (${megabytes(first.gpu_memory) || '?'} each)` : '?';
  const what = entry.kind === 'single' ? `device_id ${first?.device_id}` : `network group ${entry.group.network_id} (${field(entry.group.network_type, 20)}, ${products.length} machines: device_ids ${products.map((p) => p.device_id).join(', ')})`;
  const hardware = first ? `CUDA ${field(shownText(first.cuda_version), 20)}, driver ${field(shownText(first.gpu_driver_version), 30)}, RAM ${megabytes(first.memory_size) || '?'}, disk ${megabytes(first.system_disk_size) || '?'}` : '';
  const slow = entry.kind === 'single' && (entry.product.listing_mode === 'Proxy' || entry.product.listing_mode === 'Direct') ? ' · usable ~30 min after ordering' : '';
  return `- ${what} · ${gpus} · ${hardware} · zone ${field(zoneOf(entry), 40) || '?'} · ${total === undefined ? 'no valid price' : `${formatPoints(total)} per ${billing} pack${products.length > 1 ? ' for the group' : ''}`} · up to ${maxPacksOf(products)} packs${slow}`;
}

export const searchMachines: ToolDefinition<z.output<typeof machineInputs.searchMachines>> = {
  name: 'compute_search_machines',
  toolReferenceName: 'computeMachines',
  displayName: 'Search Bare-Metal Machines',
  userDescription: 'Find bare-metal GPU machines and network groups to rent, with their price per pack.',
  modelDescription:
    'Search the bare-metal catalogue (whole GPU machines with SSH access, rented by the pack: Hour, Day, Week or Month). Single ' +
    'machines, and network groups (several machines on IB/RoCE/NVLink) when group_size is given. Prices are per pack in yuan. ' +
    'Returns one line per machine or group, cheapest first, with the device_id (or network group) that compute_rent_machine takes.',
  input: (inputs) => inputs.machines.searchMachines,
  operations: ['metal.catalogueSingle', 'metal.catalogueGroups'],
  effect: strongestEffect(['metal.catalogueSingle', 'metal.catalogueGroups']),
  idempotent: true,
  invocationMessage: () => 'Searching bare-metal machines…',
  async run(input, context) {
    const billing = billingOf(input);
    const service = machinesOf(context);
    const groupSize = typeof input['group_size'] === 'number' ? input['group_size'] : undefined;
    const entries = groupSize === undefined ? (await service.singles(billing, {}, context.signal)).map((product) => ({ kind: 'single' as const, product })) : await service.catalogue(billing, groupSize, context.signal);
    const model = typeof input['gpu_model'] === 'string' ? input['gpu_model'].trim().toLowerCase() : '';
    const zone = typeof input['zone'] === 'string' ? input['zone'].trim() : '';
    const count = typeof input['gpu_count'] === 'number' ? input['gpu_count'] : undefined;
    const maxPoints = typeof input['max_yuan_per_pack'] === 'number' ? input['max_yuan_per_pack'] * 1_000_000 : Number.POSITIVE_INFINITY;
    const found = filterCatalogue(entries, { billing, ...(count !== undefined ? { gpuCount: count } : {}) }).filter((entry) => {
      const first = productsOf(entry)[0];
      if (!first || !rentable(entry, billing)) return false;
      if (model && !shownText(first.gpu_model).toLowerCase().includes(model)) return false;
      if (zone && !zoneOf(entry).includes(zone)) return false;
      return (orderTotal(productsOf(entry), billing, 1) ?? Number.POSITIVE_INFINITY) <= maxPoints;
    });
    if (found.length === 0) return `No bare-metal machine matches these filters for a ${billing} pack. Relax a filter or try another billing_type.`;
    const limit = context.resultLimitChars ?? RESULT_LIMIT_CHARS;
    return capLines([`${found.length} match(es), cheapest first (price per ${billing} pack):`, ...found.map((entry) => entryLine(entry, billing))], limit, 'add filters (gpu_model, gpu_count, zone, max_yuan_per_pack) to narrow the list');
  },
};

export const listMachines: ToolDefinition<z.output<typeof machineInputs.listMachines>> = {
  name: 'compute_list_machines',
  toolReferenceName: 'computeListMachines',
  displayName: 'List Rented Machines',
  userDescription: 'List rented bare-metal machines, their status and the time left on each rental.',
  modelDescription:
    'List the bare-metal machines the user rents: Waiting (not powered on yet) or Serving (SSH login available), the rental ' +
    'window and the time left, and auto-renew. Use compute_machine_connection for how to log in to a Serving machine.',
  input: (inputs) => inputs.machines.listMachines,
  operations: ['metal.rentedSingle', 'metal.rentedGroups'],
  effect: strongestEffect(['metal.rentedSingle', 'metal.rentedGroups']),
  idempotent: true,
  invocationMessage: () => 'Listing rented machines…',
  async run(_input, context) {
    // The MCP server has no store: the model asks, on the user's behalf, through the store's one read.
    const machines = await machinesOf(context).rented(context.signal);
    if (machines.length === 0) return 'No rented bare-metal machines. Find one with compute_search_machines.';
    const now = Date.now();
    const lines = machines.map((machine) => {
      const left = timeLeftMs(machine, now);
      const window = machine.startMs !== undefined && machine.endMs !== undefined ? ` · rental ${new Date(machine.startMs).toISOString()} – ${new Date(machine.endMs).toISOString()} · ${Math.floor((left ?? 0) / 60_000)} min left` : ' · not powered on yet';
      const group = machine.group ? ` · group ${machine.group.networkId} "${field(shownText(machine.group.name), 40)}"` : '';
      return `- device_id ${machine.deviceId} · ${machine.status} · ${machine.gpuCount} × ${field(shownText(machine.gpuModel), 60)}${group}${window} · auto-renew ${machine.autoRenew ?? 'off'}`;
    });
    return capLines([`${machines.length} rented machine(s):`, ...lines], context.resultLimitChars ?? RESULT_LIMIT_CHARS, 'the rest are left out');
  },
};

export const machineConnection: ToolDefinition<z.output<typeof machineInputs.machineConnection>> = {
  name: 'compute_machine_connection',
  toolReferenceName: 'computeMachineConnection',
  displayName: 'Machine Connection Details',
  userDescription: 'How to reach a Serving bare-metal machine over SSH (never its password).',
  modelDescription:
    'The SSH address, port and user of a rented bare-metal machine once it is Serving, and its exposed ports as public addresses. ' +
    'The password is never returned: tell the user to connect from the Machines view (Connect… installs a key) or the console.',
  input: (inputs) => inputs.machines.machineConnection,
  operations: ['metal.detail'],
  effect: strongestEffect(['metal.detail']),
  idempotent: true,
  invocationMessage: (input) => `Reading machine ${String(input['device_id'])}…`,
  async run(input, context) {
    const detail = await machinesOf(context).detail(Number(input['device_id']), context.signal);
    const status = detail.order_detail_status ?? 'unknown';
    if (detail.ssh_port === null || !detail.pub_ip || !detail.device_username) {
      return `Machine ${String(input['device_id'])} has no login yet (status ${field(status, 20)}): the login exists only once it is Serving. Proxy/Direct machines take about 30 minutes.`;
    }
    const host = field(shownText(detail.pub_ip), 64);
    const user = field(shownText(detail.device_username), 64);
    const ports = (Array.isArray(detail.expose_ports) ? detail.expose_ports : []).slice(0, 50).map((port) => `- machine port ${Number(port.local_port)} → ${host}:${Number(port.mapping_port)}`);
    return [
      `Machine ${String(input['device_id'])} (${field(status, 20)}): ssh -p ${Number(detail.ssh_port)} ${user}@${host}`,
      `Inner IP ${field(shownText(detail.inner_ip), 64) || 'n/a'}.`,
      'The password is not shown here: connect from the Machines view (Connect… installs a key and pins the host key) or read it in the console.',
      ...(ports.length > 0 ? ['Exposed ports:', ...ports] : []),
    ].join('\n');
  },
};

/** The catalogue entry a rent names: a single machine by device_id, or the network group holding it. */
async function entryToRent(input: Record<string, unknown>, context: ToolContext): Promise<{ entry: CatalogueEntry; billing: BillingType; packs: number; total: number }> {
  const billing = billingOf(input);
  const packs = typeof input['packs'] === 'number' ? input['packs'] : 1;
  const deviceId = Number(input['device_id']);
  const groupSize = typeof input['group_size'] === 'number' ? input['group_size'] : undefined;
  const service = machinesOf(context);
  const entries = groupSize === undefined ? (await service.singles(billing, {}, context.signal)).map((product) => ({ kind: 'single' as const, product })) : await service.catalogue(billing, groupSize, context.signal);
  const entry = entries.find((candidate) => (groupSize === undefined || candidate.kind === 'group') && productsOf(candidate).some((product) => product.device_id === deviceId));
  if (!entry) throw new ConfigError(`Machine ${deviceId} is not in the ${billing} catalogue${groupSize !== undefined ? ` as part of a network group of ${groupSize}+ machines` : ' as a single machine'}. Search again with compute_search_machines.`);
  if (!rentable(entry, billing)) throw new ConfigError(`Machine ${deviceId} has no valid ${billing} price or cannot be bought now.`);
  if (packs > maxPacksOf(productsOf(entry))) throw new ConfigError(`At most ${maxPacksOf(productsOf(entry))} packs of this machine can be bought in one order.`);
  const total = orderTotal(productsOf(entry), billing, packs);
  if (total === undefined) throw new ConfigError(`The total for ${packs} ${billing} pack(s) cannot be computed from the catalogue.`);
  return { entry, billing, packs, total };
}

/**
 * The totals the user confirmed, by profile and input: a run whose fresh total differs (the catalogue
 * changed between the confirmation and the run) is refused instead of spending what was not confirmed.
 */
const confirmedTotals = new Map<string, number>();
const KEPT_CONFIRMATIONS = 20;
const confirmationKey = (input: Record<string, unknown>, context: ToolContext): string =>
  JSON.stringify([context.profile.label, input['device_id'], billingOf(input), input['packs'] ?? 1, input['group_size'] ?? null, input['software_init'] === true]);

export const rentMachine: ToolDefinition<z.output<typeof machineInputs.rentMachine>> = {
  name: 'compute_rent_machine',
  toolReferenceName: 'computeRentMachine',
  displayName: 'Rent Bare-Metal Machine',
  userDescription: 'Rent a bare-metal machine or network group for a number of packs (spends money at once).',
  modelDescription:
    'Rent a bare-metal machine (device_id from compute_search_machines) for `packs` packs of billing_type; with group_size, rent ' +
    'the whole network group holding device_id. SPENDS MONEY: the whole rental (unit price × packs, × machines for a group) is ' +
    'charged and no API cancels it; the user confirms the total first. Returns the order id; the machine is Waiting, then Serving ' +
    '(Proxy/Direct machines take about 30 minutes): follow it with compute_list_machines.',
  input: (inputs) => inputs.machines.rentMachine,
  operations: ['metal.catalogueSingle', 'metal.catalogueGroups', 'metal.buy'],
  effect: strongestEffect(['metal.catalogueSingle', 'metal.catalogueGroups', 'metal.buy']),
  idempotent: false,
  invocationMessage: (input) => `Renting machine ${String(input['device_id'])}…`,
  async confirm(input, context) {
    const { entry, billing, packs, total } = await entryToRent(input, context);
    const products = productsOf(entry);
    const unit = sharedUnitPrice(products, billing);
    const eachPack = packOfAll(products, billing);
    const slow = entry.kind === 'group' || entry.product.listing_mode === 'Proxy' || entry.product.listing_mode === 'Direct';
    const key = confirmationKey(input, context);
    confirmedTotals.delete(key);
    confirmedTotals.set(key, total);
    while (confirmedTotals.size > KEPT_CONFIRMATIONS) confirmedTotals.delete(confirmedTotals.keys().next().value as string);
    return confirmation('write', context.profile, `Rent ${entry.kind === 'group' ? `network group ${entry.group.network_id} (${products.length} machines)` : `machine ${products[0]?.device_id}`} for ${packs} ${billing} pack(s)?`, [
      `Total: ${formatPoints(total)} = ${
        unit !== undefined
          ? `${products.length > 1 ? `${products.length} machines × ` : ''}${packs} pack(s) × ${formatPoints(unit)}${products.length > 1 ? ' (unit price per machine)' : ''}`
          : `${packs} pack(s) × ${eachPack === undefined ? '?' : formatPoints(eachPack)} (one pack of each of the ${products.length} machines, priced apart)`
      }, charged for the whole rental; no API cancels it.`,
      `${entryLine(entry, billing).slice(2)}.`,
      `Software init: ${input['software_init'] === true ? 'yes' : 'no'}.`,
      ...(slow ? ['The machine becomes usable about 30 minutes after ordering.'] : []),
    ]);
  },
  async run(input, context) {
    const { entry, billing, packs, total } = await entryToRent(input, context);
    const confirmed = confirmedTotals.get(confirmationKey(input, context));
    if (confirmed !== undefined && confirmed !== total) {
      confirmedTotals.delete(confirmationKey(input, context));
      throw new ConfigError(`The price changed since the confirmation: the total is now ${formatPoints(total)} (confirmed ${formatPoints(confirmed)}). Nothing was ordered; call the tool again to confirm the new total.`);
    }
    const orderId = await machinesOf(context).rent({ products: productsOf(entry), billing, packs, softwareInit: input['software_init'] === true }, context.signal);
    return `Placed order ${orderId}: ${productsOf(entry).length} machine(s), ${packs} × ${billing} pack, total ${formatPoints(total)}. The machine is Waiting until it is powered on; follow it with compute_list_machines.`;
  },
};
