// Limits shared by all formats. Every one is checked; going past it is an error item, never a silent cut,
// except RAW_CHARS_MAX, which only bounds a display copy.

/** The `raw` copy of a line is cut here (with a marker): it is for people, the parsed fields are the data. */
export const RAW_CHARS_MAX = 4096;
/** References, names, account identifiers (camt Max35Text/Max140Text, MT940 16x/34x fit easily). */
export const FIELD_CHARS_MAX = 140;
/** Description / remittance information (MT940 :86: is 6 x 65 in the standard; banks send more). */
export const DESCRIPTION_CHARS_MAX = 4096;
/** Input is decoded and handed to the format parsers in slices of at most this many characters. */
export const TEXT_CHUNK_CHARS_MAX = 64 * 1024;
/** After this many errors a file is not worth reading on: the parser reports that and stops. */
export const PARSE_ERRORS_MAX = 1000;
