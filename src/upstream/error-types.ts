// Error type strings and sentences the validators put in a Problem. Kept apart from the body
// builders so that validating (in a browser) does not pull in the message tables.

/** `error.type` values of the users/events envelope that more than one module uses. */
export const MISSING_ATTRIBUTE = 'MissingAttributeError';
export const MALFORMED_JSON = 'Malformed JSON';
/** Our choice for a present-but-invalid value: the public material names no type for it. */
export const INVALID_ATTRIBUTE = 'InvalidAttributeError';
/**
 * File-import status answers an enum value it can't read (e.g. a case mismatch) with a body of
 * its own shape, which has no type field; this marker selects that shape.
 */
export const FILE_IMPORT_ENUM_ERROR = 'Unable to process the request';

/** @internal The rule of a missing field in the users/events envelope (`customer_id is not found in the payload`). */
export const NOT_FOUND = 'is not found in the payload';

/** The upstream's sentence for a body it cannot decode (users, events). */
export const MALFORMED_JSON_MESSAGE = 'Could not decode the request body. The JSON was incorrect or not encoded as UTF-8.';
