"use client";

import { useEffect, useRef } from "react";
import "swagger-ui-dist/swagger-ui.css";

// Swagger UI from the swagger-ui-dist package, bundled by Next into this route's own chunks (nothing is fetched
// from a CDN): it reads the document from `url` and sends "Try it out" calls to this origin (servers: "/").
export function Reference({ url }: { url: string }) {
  const node = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelled = false;
    void import("swagger-ui-dist/swagger-ui-es-bundle.js").then(({ default: SwaggerUI }) => {
      if (cancelled || !node.current) return;
      SwaggerUI({
        domNode: node.current,
        url,
        deepLinking: true,
        docExpansion: "list",
        defaultModelsExpandDepth: 0,
        displayRequestDuration: true,
        filter: true,
        // The token pasted under "Authorize" lives in this tab's memory only, never in localStorage.
        persistAuthorization: false,
        // The default posts the document to validator.swagger.io for a badge.
        validatorUrl: null,
        // ?url= / ?configUrl= must not load another document into this origin's page.
        queryConfigEnabled: false,
      });
    });
    return () => {
      cancelled = true;
    };
  }, [url]);
  return <div ref={node} />;
}
