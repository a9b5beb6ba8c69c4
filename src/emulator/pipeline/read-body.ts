import { MALFORMED_JSON, MALFORMED_JSON_MESSAGE, type ErrorInput } from '../../upstream/error-bodies';
import { OPERATIONS, type Operation } from '../../upstream/operations';

/**
 * Reads the body as the upstream does: `application/json` only (415), at most the operation's
 * documented size (413), UTF-8 JSON (400).
 */
export async function readJson(request: Request, operation: Operation): Promise<{ body: unknown } | { refusal: ErrorInput }> {
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') return { refusal: { status: 415 } };
  const bytes = await readBytes(request, OPERATIONS[operation].maxBodyBytes);
  if (bytes === undefined) return { refusal: { status: 413 } };
  try {
    return { body: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return { refusal: malformed(operation) };
  }
}

/**
 * Consumes a body nobody read (an answer given before reading it: 401, 413, 415, ...), or the
 * next request on this keep-alive connection meets the unread bytes and fails.
 */
export async function discardBody(request: Request): Promise<void> {
  if (!request.body) return;
  try {
    await drain(request.body.getReader());
  } catch {
    // The client went away; nothing to keep.
  }
}

// Our sentence where the upstream shows none for an undecodable body.
const UNDECODABLE = 'Could not decode the request body: not valid UTF-8 JSON';

function malformed(operation: Operation): ErrorInput {
  switch (operation) {
    case 'experienceEvents':
      return { status: 400, type: MALFORMED_JSON, message: UNDECODABLE };
    case 'users':
    case 'events':
      return { status: 400, type: MALFORMED_JSON, message: MALFORMED_JSON_MESSAGE };
    case 'fileImportStatus':
      return { status: 400, type: 'Invalid Request', message: UNDECODABLE };
    case 'campaignUpdate':
      // The upstream's own 500 example shows a Python JSON decoder message; a 400 is what it should be.
      return { status: 400, field: 'body', message: 'Expecting value: the request body is not valid UTF-8 JSON' };
  }
}

/** Bytes read and thrown away after an early answer before giving up on the connection. */
const MAX_DISCARD = 16 * 1024 * 1024;

/** Reads a stream to its end and drops it, giving up (cancel) past MAX_DISCARD bytes. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
    if (total > MAX_DISCARD) return void (await reader.cancel());
  }
}

/** Reads at most `max` bytes; undefined when the body is larger (the rest is then discarded by the caller). */
async function readBytes(request: Request, max: number): Promise<Uint8Array | undefined> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) return undefined;
  if (!request.body) return new Uint8Array(0);
  // With a declared length within the limit, the platform's own reader is the fast path.
  if (request.headers.has('content-length') && Number.isFinite(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength > max ? undefined : bytes;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await drain(reader).catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
