// The shapes of NAS results the extension reads (docs/nas.md), checked where they enter by the
// compute client (compute/resultShapes.ts passes its checkers in; this file imports no values from it).

import type { NasOperationId } from './operations';

/** A result checker (the same shape as compute/resultShapes.ts's Check, declared here: no import circle). */
export type Check = (value: unknown, path: string) => unknown;

export interface ShapeCheckers {
  string: Check;
  number: Check;
  boolean: Check;
  optional(check: Check): Check;
  record(fields: Record<string, Check>): Check;
  list(item: Check, emptyIfMissing?: boolean): Check;
  paged(item: Check): Check;
  anything: Check;
}

export function nasResultShapes(c: ShapeCheckers): Record<NasOperationId, Check> {
  const region = c.record({ tag: c.string, name: c.string });
  const volume = c.record({
    storage_id: c.number,
    name: c.string,
    region,
    storage_class: c.string,
    unit_price: c.number,
    display_unit_price: c.string,
    total_size: c.number,
    used_size: c.number,
    status: c.string,
    instances: c.list(c.record({}), true),
    error_message: c.optional(c.string),
  });
  const answer = c.record({ storage_id: c.number, status: c.string });
  const transfer = c.record({
    id: c.number,
    name: c.string,
    ready_files: c.number,
    total_files: c.number,
    transferred_bytes: c.number,
    total_bytes: c.number,
    bps: c.number,
    remaining_seconds: c.number,
    status: c.string,
    direction: c.number,
    storage_id: c.number,
    error_message: c.optional(c.string),
  });
  const idStatus = c.record({ id: c.number, status: c.string });
  return {
    'nas.summary': c.record({ volume_count: c.number, total_size: c.number, used_size: c.number, estimated_price: c.optional(c.number), coin_sum_slice: c.number }),
    'nas.dictionaries': c.record({ regions: c.list(region, true), storage_classes: c.list(c.record({ storage_class: c.string, storage_class_name: c.string }), true) }),
    'nas.preCreate': c.record({
      configs: c.list(
        c.record({ id: c.number, name: c.string, region, storage_class: c.string, total_capacity: c.number, allocated_capacity: c.number, display_unit_price: c.string, status: c.string }),
        true,
      ),
    }),
    'nas.list': c.paged(volume),
    'nas.create': answer,
    'nas.expand': answer,
    'nas.rename': answer,
    'nas.delete': answer,
    'nas.sftpObtain': c.optional(c.record({ id: c.number, status: c.string, username: c.optional(c.string), sftp_url: c.optional(c.string), expire_at: c.optional(c.string) })),
    'nas.sftpDestroy': c.anything,
    'nas.transferList': c.record({ results: c.list(transfer, true), count: c.number }),
    'nas.transferDetail': transfer,
    'nas.transferStop': idStatus,
    'nas.transferDelete': c.record({ id: c.optional(c.number), status: c.optional(c.string) }),
    'nas.transferCreate': idStatus,
    'nas.transferRetry': idStatus,
    'nas.transferCheck': c.record({ pass: c.boolean, message: c.optional(c.string) }),
  };
}
