// The messages between the host and the spec validation worker (validationWorker.ts).

import type { Recording } from './recordedMessages';
import type { SpecDiagnostic, SpecFormat } from './types';

export interface WorkerRequest {
  id: number;
  text: string;
  format: SpecFormat;
}

export type WorkerAnswer =
  | { id: number; diagnostics: SpecDiagnostic[]; recording: Recording; valid: boolean; kind?: string; taskId?: number; images?: string[]; region?: string }
  | { id: number; failure: string };

/** A spec text's check as the editor needs it: diagnostics in the display language and what the CodeLens row reads. */
export interface SpecTextCheck {
  diagnostics: SpecDiagnostic[];
  /** True when nothing is an error (the spec may be planned and deployed). */
  valid: boolean;
  kind?: string;
  taskId?: number;
  /** The images its services run, and its resource's region (the Preheat lens). */
  images?: string[];
  region?: string;
}
