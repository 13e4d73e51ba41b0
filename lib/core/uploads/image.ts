import sharp, { type OutputInfo, type SharpOptions } from "sharp";
import { rgbaToThumbHash } from "thumbhash";
import { DomainError } from "../../kernel/errors";
import { MAX_INPUT_PIXELS, type KindSpec } from "./kinds";
import { sniffImage, type ImageType } from "./sniff";
import { errors as uploadsErrors } from "./errors";

export interface ProcessedImage {
  bytes: Buffer;
  width: number;
  height: number;
  contentType: "image/webp";
  /** ThumbHash of the result, base64. */
  thumbhash: string;
  /** What the upload was, from its bytes. */
  sourceType: ImageType;
}

// sharp's format name for each sniffed type: the decoder libvips picks must agree with the magic number.
const SHARP_FORMAT: Record<ImageType, string> = { jpeg: "jpeg", png: "png", gif: "gif", webp: "webp", avif: "heif", heic: "heif" };

const ACCEPTED = "JPEG, PNG, WebP, GIF or AVIF";

const decodeOptions: SharpOptions = {
  // Truncated or corrupt pixel data aborts (a JPEG cut short is refused, not padded with grey). Plain libjpeg
  // warnings (e.g. stray bytes before a marker, common in phone photos) are tolerated.
  failOn: "truncated",
  limitInputPixels: MAX_INPUT_PIXELS,
  // Animated GIF/WebP: the first frame only.
  pages: 1,
  sequentialRead: true,
};

const invalid = (message: string) => new DomainError(uploadsErrors.INVALID_IMAGE, message);
const unsupported = (message: string) => new DomainError(uploadsErrors.UNSUPPORTED_MEDIA_TYPE, message);

/**
 * Type check from the bytes, decode (refusing truncated/corrupt data), auto-rotate from EXIF, resize within the
 * kind's bounds, re-encode as WebP with every metadata block stripped (EXIF/GPS, XMP, ICC after conversion to
 * sRGB), and compute a ThumbHash. Throws 415 UNSUPPORTED_MEDIA_TYPE or 422 INVALID_IMAGE.
 */
export async function processImage(input: Uint8Array, spec: KindSpec): Promise<ProcessedImage> {
  const sourceType = sniffImage(input);
  if (!sourceType) throw unsupported(`The file is not an accepted image. Send ${ACCEPTED} (SVG is never accepted).`);

  const failed = (error: unknown): DomainError => {
    const message = error instanceof Error ? error.message : String(error);
    // Prebuilt libvips reads HEIF containers but ships no HEVC decoder: HEIC is then unsupported, not corrupt.
    if (sourceType === "heic") return unsupported(`HEIC images cannot be decoded here. Send ${ACCEPTED}.`);
    if (/pixel limit/i.test(message)) return invalid(`The image has more than ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`);
    return invalid("The image could not be decoded: it is truncated or corrupt.");
  };

  let width: number;
  let height: number;
  try {
    const meta = await sharp(input, decodeOptions).metadata();
    if (meta.format !== SHARP_FORMAT[sourceType]) throw new Error(`decoder ${meta.format} does not match ${sourceType}`);
    width = meta.autoOrient?.width ?? meta.width;
    height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new Error("no dimensions");
    if (width * height > MAX_INPUT_PIXELS) throw new Error("pixel limit");
  } catch (error) {
    throw failed(error);
  }

  let pipeline = sharp(input, decodeOptions).autoOrient();
  if (spec.fit === "cover") {
    const side = Math.min(spec.width, width, height);
    pipeline = pipeline.resize(side, side, { fit: "cover", position: "centre" });
  } else {
    pipeline = pipeline.resize(spec.width, spec.height, { fit: "inside", withoutEnlargement: true });
  }
  let out: { data: Buffer; info: OutputInfo };
  try {
    // No keepMetadata()/withMetadata(): sharp converts to sRGB and writes no EXIF, XMP or ICC.
    out = await pipeline.webp({ quality: spec.quality, effort: 4 }).toBuffer({ resolveWithObject: true });
  } catch (error) {
    throw failed(error);
  }
  return {
    bytes: out.data,
    width: out.info.width,
    height: out.info.height,
    contentType: "image/webp",
    thumbhash: await thumbhashOf(out.data),
    sourceType,
  };
}

/** ThumbHash (base64) of an image, computed on an RGBA render of at most 100×100. */
export async function thumbhashOf(image: Uint8Array): Promise<string> {
  const { data, info } = await sharp(image).resize(100, 100, { fit: "inside" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString("base64");
}
