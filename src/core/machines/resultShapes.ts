// The shapes of bare-metal results the extension reads (docs/machines.md), checked where they enter by
// the compute client (compute/resultShapes.ts lists them beside the compute shapes; docs/shapes.md).

import type { z } from 'zod';
import { anything, list, number, optional, paged, record, string } from '../compute/wireShapes';
import type { MachineOperationId } from './operations';

const product = record({
  device_id: number,
  gpu_model: string,
  gpu_count: number,
  max_buy_count: number,
  hour_price: number,
  day_price: number,
  week_price: number,
  month_price: number,
  hour_price_discount: optional(number),
  day_price_discount: optional(number),
  week_price_discount: optional(number),
  month_price_discount: optional(number),
});
const rented = { device_id: number, order_details_id: number, order_detail_status: string, billing_type: string, use_end_time: optional(string), gpu_model: string };

export const MACHINE_RESULT_SHAPES: Record<MachineOperationId, z.ZodType> = {
  'metal.catalogueSingle': paged(product),
  'metal.catalogueGroups': list(record({ network_id: number, network_type: string, inner: list(product, true) }), true),
  'metal.buy': record({ order_id: number }),
  'metal.orders': paged(record({ order_id: number, order_no: string, status: string, total_price: number, billing_type: string })),
  'metal.rentedSingle': list(record({ ...rented, order_id: number }), true),
  'metal.rentedGroups': list(record({ network_id: number, network_type: string, inner: list(record(rented), true) }), true),
  'metal.detail': record({ pub_ip: optional(string), inner_ip: optional(string), ssh_port: optional(number), device_username: optional(string), expose_ports: list(record({ local_port: number, mapping_port: number }), true) }),
  'metal.setAutoRenew': anything,
  'metal.cancelAutoRenew': anything,
};
