import { DomainError, sharedErrors } from "../kernel/errors";

/** Marks an empty body on a route whose body is optional. */
export const UNSET_BODY = Symbol("unset-body");

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const tooLarge = (limit: number) => new DomainError(sharedErrors.PAYLOAD_TOO_LARGE, `The request body is larger than ${limit} bytes.`);

/**
 * Reads a JSON body through a size limit (413 past it, without buffering the rest).
 * Returns UNSET_BODY for an empty body when the body is optional.
 */
export async function readJsonBody(req: Request, limit: number, required: boolean): Promise<unknown> {
  return parseJsonBytes(await readLimitedBody(req, limit), required, req.headers.get("content-type") ?? "");
}

/** The raw request body through a size limit: 413 on a declared Content-Length past it, or once the bytes pass it. */
export async function readLimitedBody(req: Request, limit: number): Promise<Buffer> {
  const declared = req.headers.get("content-length");
  if (declared && Number(declared) > limit) throw tooLarge(limit);
  return readBodyBytes(req, limit).catch((error: unknown) => {
    if (error instanceof DomainError) throw error;
    // The client went away before sending its whole body (Node reports ECONNRESET "aborted"): a request cut short,
    // not a database that cannot be reached (that code would otherwise read as one).
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The request body ended early: the connection closed before all of it arrived.", [
      { path: "body", message: "Incomplete" },
    ]);
  });
}

/**
 * JSON from body bytes already read: UNSET_BODY when empty and optional, 400 when empty and required, not UTF-8,
 * not sent as JSON (unless `contentType` is null: a signed body is judged by its bytes, the type header is not signed)
 * or malformed.
 */
export function parseJsonBytes(bytes: Buffer, required: boolean, contentType: string | null): unknown {
  const text = decodeUtf8(bytes);
  if (text.trim() === "") {
    if (!required) return UNSET_BODY;
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "A JSON request body is required.", [{ path: "body", message: "Required" }]);
  }
  if (contentType !== null && !JSON_TYPE.test(contentType)) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The request body must be sent as application/json.", [
      { path: "headers.content-type", message: `Expected application/json, got ${contentType ? JSON.stringify(contentType.slice(0, 100)) : "none"}` },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The request body is not valid JSON.", [{ path: "body", message: "Malformed JSON" }]);
  }
}

/**
 * The raw body, read while counting: past `limit` bytes the stream is cancelled and `tooBig()` is thrown, whatever
 * Content-Length claimed (a client can lie, or send chunked). For JSON, multipart and signed webhook bodies alike,
 * and for the responses of feeds we fetch.
 */
export async function readBodyBytes(
  source: { body: ReadableStream<Uint8Array> | null },
  limit: number,
  tooBig: () => Error = () => tooLarge(limit),
): Promise<Buffer> {
  if (!source.body) return Buffer.alloc(0);
  const reader = source.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The request body is not valid UTF-8.", [{ path: "body", message: "Invalid UTF-8" }]);
  }
}
