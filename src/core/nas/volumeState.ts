// NAS volumes as a kind of remote state (core/state, CONTRIBUTING "Add a kind of remote state"): every
// volume, every page. At rest unless a volume is Creating, Expanding or Deleting (docs/nas.md: only those
// change on their own), so an account whose volumes sit still costs nothing until a wake. The NAS view
// reads this store; the volume list operation is called from volumes.ts alone (test/unit/state/jobVolumeListCallers.test.ts).

import type { ComputeClient } from '../compute/api';
import type { StateDefinition } from '../state/definition';
import { TRANSITIONAL_VOLUME_STATUSES, type NasVolume } from './operations';
import { readVolumes } from './volumes';

function sameVolume(a: NasVolume, b: NasVolume): boolean {
  return (
    a.status === b.status &&
    a.name === b.name &&
    a.total_size === b.total_size &&
    a.used_size === b.used_size &&
    a.instance_count === b.instance_count &&
    a.display_unit_price === b.display_unit_price &&
    a.error_code === b.error_code &&
    a.error_message === b.error_message &&
    JSON.stringify(a.instances) === JSON.stringify(b.instances)
  );
}

export const VOLUME_STATE: StateDefinition<NasVolume, number, ComputeClient> = {
  kind: 'volumes',
  key: (volume) => volume.storage_id,
  list: async (client, signal) => {
    const listed = await readVolumes(client, {}, signal);
    return { items: listed.items, complete: !listed.truncated, total: listed.count };
  },
  atRest: (volumes) => !volumes.some((volume) => TRANSITIONAL_VOLUME_STATUSES.includes(volume.status)),
  equal: sameVolume,
};
