// The shapes of NAS results the extension reads (docs/nas.md), checked where they enter by the
// compute client (compute/resultShapes.ts lists them beside the compute shapes; docs/shapes.md).

import type { z } from 'zod';
import { anything, boolean, list, number, optional, paged, record, string } from '../compute/wireShapes';
import type { NasOperationId } from './operations';

const region = record({ tag: string, name: string });
const volume = record({
  storage_id: number,
  name: string,
  region,
  storage_class: string,
  unit_price: number,
  display_unit_price: string,
  total_size: number,
  used_size: number,
  status: string,
  instances: list(record({}), true),
  error_message: optional(string),
});
const answer = record({ storage_id: number, status: string });
const transfer = record({
  id: number,
  name: string,
  ready_files: number,
  total_files: number,
  transferred_bytes: number,
  total_bytes: number,
  bps: number,
  remaining_seconds: number,
  status: string,
  direction: number,
  storage_id: number,
  error_message: optional(string),
});
const idStatus = record({ id: number, status: string });

export const NAS_RESULT_SHAPES: Record<NasOperationId, z.ZodType> = {
  'nas.summary': record({ volume_count: number, total_size: number, used_size: number, estimated_price: optional(number), coin_sum_slice: number }),
  'nas.dictionaries': record({ regions: list(region, true), storage_classes: list(record({ storage_class: string, storage_class_name: string }), true) }),
  'nas.preCreate': record({
    configs: list(
      record({ id: number, name: string, region, storage_class: string, total_capacity: number, allocated_capacity: number, display_unit_price: string, status: string }),
      true,
    ),
  }),
  'nas.list': paged(volume),
  'nas.create': answer,
  'nas.expand': answer,
  'nas.rename': answer,
  'nas.delete': answer,
  'nas.sftpObtain': optional(record({ id: number, status: string, username: optional(string), sftp_url: optional(string), expire_at: optional(string) })),
  'nas.sftpDestroy': anything,
  'nas.transferList': record({ results: list(transfer, true), count: number }),
  'nas.transferDetail': transfer,
  'nas.transferStop': idStatus,
  'nas.transferDelete': record({ id: optional(number), status: optional(string) }),
  'nas.transferCreate': idStatus,
  'nas.transferRetry': idStatus,
  'nas.transferCheck': record({ pass: boolean, message: optional(string) }),
};
