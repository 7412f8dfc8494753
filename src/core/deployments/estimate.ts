// GPU memory a model needs under vLLM (the formula is in docs/deployments.md): weights at the chosen
// precision, a KV cache for one sequence of the asked context, and overhead. Pure and bounded.

import type { ModelShape } from './catalog';
import { findCuratedModel } from './catalog';

export type Precision = 'bf16' | 'fp8' | 'int4';

export const PRECISION_BYTES: Readonly<Record<Precision, number>> = { bf16: 2, fp8: 1, int4: 0.5 };

const GIB = 1024 ** 3;
/** KV cache entries are kept in 16-bit. */
const KV_BYTES = 2;
const OVERHEAD_FRACTION = 0.15;
const OVERHEAD_FIXED_BYTES = 1.5 * GIB;
/** vLLM's --gpu-memory-utilization we pass: the share of each card it may use. */
export const GPU_MEMORY_UTILIZATION = 0.9;

export interface MemoryEstimate {
  weightsBytes: number;
  kvCacheBytes: number;
  overheadBytes: number;
  totalBytes: number;
}

export function estimateMemory(shape: ModelShape, precision: Precision, contextTokens: number): MemoryEstimate {
  const weightsBytes = shape.paramsB * 1e9 * PRECISION_BYTES[precision];
  const kvCacheBytes = 2 * shape.layers * shape.kvHeads * shape.headDim * contextTokens * KV_BYTES;
  const overheadBytes = weightsBytes * OVERHEAD_FRACTION + OVERHEAD_FIXED_BYTES;
  return { weightsBytes, kvCacheBytes, overheadBytes, totalBytes: weightsBytes + kvCacheBytes + overheadBytes };
}

/** "Qwen/Qwen2.5-72B-Instruct" → 72, "…-1.5b" → 1.5, "8x7B" → 56; undefined when the name gives no size. */
export function paramsFromId(id: string): number | undefined {
  const name = id.slice(0, 200).split('/').pop() ?? '';
  const experts = /(?:^|[-_.])(\d{1,2})x(\d{1,4}(?:\.\d{1,2})?)b(?=$|[-_.])/i.exec(name);
  if (experts?.[1] !== undefined && experts[2] !== undefined) return Number(experts[1]) * Number(experts[2]);
  const size = /(?:^|[-_.])(\d{1,4}(?:\.\d{1,2})?)b(?=$|[-_.])/i.exec(name);
  return size?.[1] !== undefined ? Number(size[1]) : undefined;
}

/** A generic shape for a model of `paramsB` billion parameters not in the curated list. */
export function genericShape(paramsB: number): ModelShape {
  return { paramsB, layers: paramsB >= 30 ? 64 : 32, kvHeads: 8, headDim: 128 };
}

/** The curated shape, or a generic one from the size in the name (or `paramsB` when the user gave it). */
export function shapeFor(id: string, paramsB?: number): ModelShape | undefined {
  const curated = findCuratedModel(id);
  if (curated) return curated;
  const size = paramsB ?? paramsFromId(id);
  return size !== undefined && size > 0 ? genericShape(size) : undefined;
}

export function bytesToGiB(bytes: number): number {
  return bytes / GIB;
}

/** "17.3 GB" (GiB, as the trees show VRAM). */
export function formatGiB(bytes: number): string {
  const gib = bytesToGiB(bytes);
  return `${gib >= 100 ? gib.toFixed(0) : gib.toFixed(1)} GB`;
}
