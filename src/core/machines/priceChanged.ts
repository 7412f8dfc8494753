// The platform's refusal of an order whose price changed meanwhile, apart from the machine service so the
// editor's rent flow can recognise it without loading the SSH layer at activation (docs/machines.md).

import { ConfigError, coreText } from '../errors';
import type { BillingType } from './operations';

/** The platform refused the order because a price changed: `newPrice` is what it costs now (points per pack). */
export class PriceChangedError extends ConfigError {
  readonly code = 'price-changed' as const;
  constructor(
    readonly deviceId: number,
    readonly newPrice: number,
    readonly billing: BillingType,
    options?: { cause?: unknown },
  ) {
    super(coreText('machines.priceChanged', deviceId, newPrice, billing), undefined, options);
  }
}
