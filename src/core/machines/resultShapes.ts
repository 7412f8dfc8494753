// The shapes of bare-metal results the extension reads (docs/machines.md), checked where they enter by
// the compute client (compute/resultShapes.ts passes its checkers in, as for NAS).

import type { Check } from '../compute/resultShapes';
import type { ShapeCheckers } from '../nas/resultShapes';
import type { MachineOperationId } from './operations';

export function machineResultShapes(c: ShapeCheckers): Record<MachineOperationId, Check> {
  const product = c.record({
    device_id: c.number,
    gpu_model: c.string,
    gpu_count: c.number,
    max_buy_count: c.number,
    hour_price: c.number,
    day_price: c.number,
    week_price: c.number,
    month_price: c.number,
    hour_price_discount: c.optional(c.number),
    day_price_discount: c.optional(c.number),
    week_price_discount: c.optional(c.number),
    month_price_discount: c.optional(c.number),
  });
  const rented = { device_id: c.number, order_details_id: c.number, order_detail_status: c.string, billing_type: c.string, use_end_time: c.optional(c.string), gpu_model: c.string };
  return {
    'metal.catalogueSingle': c.paged(product),
    'metal.catalogueGroups': c.list(c.record({ network_id: c.number, network_type: c.string, inner: c.list(product, true) }), true),
    'metal.buy': c.record({ order_id: c.number }),
    'metal.orders': c.paged(c.record({ order_id: c.number, order_no: c.string, status: c.string, total_price: c.number, billing_type: c.string })),
    'metal.rentedSingle': c.list(c.record({ ...rented, order_id: c.number }), true),
    'metal.rentedGroups': c.list(c.record({ network_id: c.number, network_type: c.string, inner: c.list(c.record(rented), true) }), true),
    'metal.detail': c.record({ pub_ip: c.optional(c.string), inner_ip: c.optional(c.string), ssh_port: c.optional(c.number), device_username: c.optional(c.string), expose_ports: c.list(c.record({ local_port: c.number, mapping_port: c.number }), true) }),
    'metal.setAutoRenew': c.anything,
    'metal.cancelAutoRenew': c.anything,
  };
}
