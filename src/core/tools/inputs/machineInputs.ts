// The bare-metal machine tools' inputs (../machineTools.ts): one zod schema each (docs/shapes.md).

import { z } from 'zod';
import { MAX_PACKS } from '../../machines/catalogueQuery';
import { BILLING_TYPES } from '../../machines/operations';
import { idField } from './fields';

const billingField = () => z.enum(BILLING_TYPES).default('Hour').meta({ description: 'Pack type: Hour (1 h), Day (24 h), Week (7 days) or Month (30 days).' });
const deviceIdField = (): z.ZodInt => idField('A device_id from compute_search_machines or compute_list_machines.', 9001);

export const searchMachines = z.strictObject({
  billing_type: billingField(),
  gpu_model: z.string().max(64).optional().meta({ description: 'Part of the GPU model name, case-insensitive.', examples: ['A100', '4090'] }),
  gpu_count: z.int().min(1).max(64).optional().meta({ description: 'Exact number of GPUs per machine.', examples: [8] }),
  zone: z.string().max(64).optional().meta({ description: 'Part of the zone name.', examples: ['华东'] }),
  max_yuan_per_pack: z.number().min(0).optional().meta({ description: 'Highest price of one pack (for a group: the whole group), in yuan.' }),
  group_size: z.int().min(2).max(64).optional().meta({ description: 'Also list network groups of at least this many machines.' }),
});

export const listMachines = z.strictObject({});

export const machineConnection = z.strictObject({ device_id: deviceIdField() });

export const rentMachine = z.strictObject({
  device_id: deviceIdField(),
  billing_type: billingField(),
  packs: z.int().min(1).max(MAX_PACKS).default(1).meta({ description: 'How many packs (how long): 3 × Hour = 3 hours.' }),
  group_size: z.int().min(2).max(64).optional().meta({ description: 'Rent the network group holding device_id (as listed by compute_search_machines with this group_size).' }),
  software_init: z.boolean().default(false).meta({ description: "The platform's software init (it installs software it does not name)." }),
});
