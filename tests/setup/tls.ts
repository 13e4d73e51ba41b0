import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * A throw-away self-signed certificate (P-256, two days) for a test HTTPS stand-in (the uploads' image host, APNs),
 * made by openssl in `dir`: `subject` its CN, `altNames` its subjectAltName (e.g. "DNS:localhost,IP:127.0.0.1").
 * `certFile` is for NODE_EXTRA_CA_CERTS.
 */
export function selfSignedCertificate(dir: string, subject: string, altNames: string): { key: string; cert: string; certFile: string } {
  const keyFile = path.join(dir, "standin.key");
  const certFile = path.join(dir, "standin.crt");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-keyout",
      keyFile,
      "-out",
      certFile,
      "-days",
      "2",
      "-subj",
      `/CN=${subject}`,
      "-addext",
      `subjectAltName=${altNames}`,
    ],
    { stdio: "ignore" },
  );
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile };
}
