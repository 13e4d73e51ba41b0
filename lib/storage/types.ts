export interface StoredObject {
  bytes: Buffer;
  contentType: string;
}

/** A stored file opened for streaming: its bytes arrive as the body is read. */
export interface StoredStream {
  body: ReadableStream<Uint8Array>;
  size: number;
  contentType: string;
}

/** Where uploaded files live. Keys are unique per upload (a fresh UUID), so stored files never change. */
export interface Storage {
  readonly driver: "local" | "vercel-blob";
  /** Stores bytes under key; the returned URL is what clients load. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<{ url: string }>;
  /** Removes a stored file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Reads a stored file back; null when missing. */
  get(key: string): Promise<StoredObject | null>;
  /** Opens a stored file for streaming (large files: data exports); null when missing. */
  open(key: string): Promise<StoredStream | null>;
  /**
   * Vercel Blob only: a client token that lets a client upload one file straight to `pathname` (Vercel Blob's
   * client uploads), bounded in size, type and time. The local driver's equivalent is the app's own PUT route.
   */
  clientUploadToken?(pathname: string, limits: { maxBytes: number; contentTypes: string[]; validUntil: Date }): Promise<string>;
}
