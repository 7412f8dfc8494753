// What one catalog entry says about an operation, and the helpers the area catalogs
// (src/core/<area>/operations.ts) write their entries with. `declare<{ params; result }>(entry)` ties the
// entry to its types, so the ids and OperationTypes are derived from the catalog (catalog.ts).

export type HttpMethod = 'GET' | 'POST';

/**
 * What an operation does to the account: `read` changes nothing; `write` creates or changes something
 * (and may cost money); `destructive` deletes something that cannot be brought back. Confirmations,
 * Sign Request and the agent tools decide from this, never from the operation's name or method.
 */
export type OperationEffect = 'read' | 'write' | 'destructive';

export interface OperationField {
  name: string;
  type: 'string' | 'integer' | 'number';
  required: boolean;
  secret?: boolean;
  /** A value the platform's docs give for a required parameter; the Sign Request wizard pre-fills it. */
  example?: string;
}

/** A catalog entry (the operation's id is its key in the catalog). */
export interface OperationEntry {
  title: string;
  effect: OperationEffect;
  method: HttpMethod;
  path: string;
  /** 'never' | 'optional' | 'required' (platform reference flags 加密). */
  encryption: 'never' | 'optional' | 'required';
  /**
   * Content-Type of an encrypted body. The spec's is application/json (the default, docs/platform.md);
   * the NAS S3 calls take the ciphertext only as text/plain (docs/nas.md).
   */
  encryptedBodyType?: 'text/plain';
  /** Safe to retry on 429/5xx/network (reads; never creates). */
  idempotent: boolean;
  /** Parameter names and types, for wizards and the Sign Request command. */
  fields: OperationField[];
  /**
   * A field of the data that may be a very long text (a node's whole log): only its last TAIL_CHARS
   * characters are kept and `<field>From` says how many came before (src/core/http/jsonAnswer.ts).
   */
  tailOf?: string;
}

/** An entry carrying its params and result types (type-only: nothing extra exists at run time). */
export interface TypedOperationEntry<Params, Result> extends OperationEntry {
  readonly types?: { params: Params; result: Result };
}

/** Declares one operation: `declare<{ params: P; result: R }>({ title, effect, … })`. */
export function declare<T extends { params: unknown; result: unknown }>(entry: OperationEntry): TypedOperationEntry<T['params'], T['result']> {
  return entry;
}

/** The `{ params, result }` of each entry of a catalog. */
export type TypesOf<Catalog> = {
  [Id in keyof Catalog]: Catalog[Id] extends TypedOperationEntry<infer Params, infer Result> ? { params: Params; result: Result } : never;
};

export const str = (name: string, required = false, secret = false): OperationField =>
  secret ? { name, type: 'string', required, secret } : { name, type: 'string', required };
export const int = (name: string, required = false): OperationField => ({ name, type: 'integer', required });
/** A required query parameter (comma-separated list) with the value the platform's docs show. */
export const query = (name: string, example: string): OperationField => ({ name, type: 'string', required: true, example });

export const paging = [int('page'), int('page_size')];
