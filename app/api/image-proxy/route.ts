import { z } from "zod";
import { methods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { fetchProxiedImage, MAX_REDIRECTS } from "@/lib/core/uploads/image-proxy";
import { sharedErrors } from "@/lib/kernel/errors";
import { errors as uploadsErrors } from "@/lib/core/uploads/errors";

// Answers the image bytes themselves (the handler returns a Response, which the pipeline passes through);
// every error is the usual JSON error body. The fetch rules are in lib/core/uploads/image-proxy.ts.

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: route(
    {
      summary: "Fetch a remote image through the proxy",
      description:
        "Fetches an https image from an allow-listed host (IMAGE_PROXY_ALLOWED_HOSTS) and answers its bytes with long cache headers. " +
        "Refused with 400 URL_NOT_ALLOWED: other schemes (plain http too), URLs with credentials, hosts not on the allow-list, and hosts " +
        "that resolve to any private, loopback, link-local, CGNAT, multicast or reserved address (IPv4 and IPv6, including IPv4-mapped). " +
        `Redirects are followed at most ${MAX_REDIRECTS} times, each hop checked like the first (a refused hop is 502). ` +
        "The body must be an image by its bytes (JPEG, PNG, GIF, WebP, AVIF; never SVG) and within the size limit (default 5 MB), " +
        "else 502 UPSTREAM_ERROR; the whole fetch must finish within the time limit (default 5 s), else 504 UPSTREAM_TIMEOUT.",
      tags: ["Platform"],
      auth: "public",
      rateLimit: "public",
      database: false,
      query: z.object({ url: z.string().min(1).max(2048).meta({ description: "Absolute https URL of the image." }) }),
      response: z.instanceof(Response),
      envelope: false,
      errors: [uploadsErrors.URL_NOT_ALLOWED, sharedErrors.UPSTREAM_ERROR, sharedErrors.UPSTREAM_TIMEOUT],
      openapi: {
        successResponses: {
          "200": {
            description: "The image bytes, with the type sniffed from them.",
            headers: {
              "Cache-Control": { schema: { type: "string", const: "public, max-age=86400, immutable" } },
              "X-Content-Type-Options": { schema: { type: "string", const: "nosniff" } },
            },
            content: { "image/*": { schema: { type: "string", format: "binary", contentMediaType: "image/*" } } },
          },
        },
      },
    },
    async ({ query }) => {
      const image = await fetchProxiedImage(query.url);
      return new Response(new Uint8Array(image.bytes), {
        status: 200,
        headers: {
          "Content-Type": image.contentType,
          "Content-Length": String(image.bytes.byteLength),
          "Cache-Control": "public, max-age=86400, immutable",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "default-src 'none'; sandbox",
          "Content-Disposition": "inline",
        },
      });
    },
  ),
});
