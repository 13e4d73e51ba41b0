import { readBodyBytes } from "./body";
import { DomainError, sharedErrors } from "../kernel/errors";

// Multipart bodies are read here, inside the route handler (the pipeline parses JSON only): the body is read
// through a size limit while streaming (a client can omit or lie about Content-Length, or send it chunked),
// and only the bounded buffer is handed to the standard FormData parser.

/** Bytes of multipart framing (boundaries, part headers, small fields) allowed on top of the file limit. */
export const MULTIPART_OVERHEAD = 64 * 1024;

export interface MultipartUpload {
  file: { bytes: Uint8Array; name: string; type: string };
  /** The other (text) fields, first value of each. */
  fields: Record<string, string>;
}

const MULTIPART_TYPE = /^multipart\/form-data\s*;(.*;)?\s*boundary=/i;

const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
const tooLarge = (maxFileBytes: number) =>
  new DomainError(sharedErrors.PAYLOAD_TOO_LARGE, `The file is larger than this route accepts (${mb(maxFileBytes)}, ${maxFileBytes} bytes).`);

/** Reads a multipart/form-data upload with a required `file` field. 400 VALIDATION_ERROR or 413 PAYLOAD_TOO_LARGE. */
export async function readMultipartUpload(req: Request, maxFileBytes: number): Promise<MultipartUpload> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!MULTIPART_TYPE.test(contentType)) {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The request body must be sent as multipart/form-data with a `file` field.", [
      { path: "headers.content-type", message: `Expected multipart/form-data, got ${contentType ? JSON.stringify(contentType.slice(0, 100)) : "none"}` },
    ]);
  }
  const limit = maxFileBytes + MULTIPART_OVERHEAD;
  const declared = req.headers.get("content-length");
  if (declared && Number(declared) > limit) throw tooLarge(maxFileBytes);
  const body = await readBodyBytes(req, limit, () => tooLarge(maxFileBytes));

  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "The multipart body is malformed.", [{ path: "body", message: "Malformed multipart/form-data" }]);
  }
  const file = form.get("file");
  if (file === null || typeof file === "string") {
    throw new DomainError(sharedErrors.VALIDATION_ERROR, "A `file` field holding the image is required.", [
      { path: "body.file", message: file === null ? "Required" : "Expected a file, got a text field" },
    ]);
  }
  if (file.size > maxFileBytes) throw tooLarge(maxFileBytes);
  if (file.size === 0) throw new DomainError(sharedErrors.VALIDATION_ERROR, "The file is empty.", [{ path: "body.file", message: "Empty file" }]);

  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  return {
    file: { bytes: new Uint8Array(await file.arrayBuffer()), name: (file as File).name ?? "", type: file.type },
    fields,
  };
}
