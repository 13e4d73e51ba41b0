// The direction of lib/ (docs/decisions/0068-a-kernel-at-the-bottom.md), checked by `npm run lint`:
//   kernel  ←  env, time, ports  ←  db, redis, storage  ←  auth  ←  http  ←  core  ←  features  ←  operations  ←  app/
// The domain modules sit in three tiers (docs/decisions/0069-domains-in-tiers.md): lib/core (what the others build on),
// lib/features (what fans do), lib/operations (what looks across them: the console's reads, the erasure, the OpenAPI
// document). An arrow may only point down this list; no import (static, dynamic or type-only) may close a circle in
// lib/, and no two modules (lib/<tier>/<module>/) may reach each other through any chain of imports.
const BASE = "^lib/(kernel|db|redis|storage|auth|http|generated)/|^lib/(env|time|ports|startup)\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "production-code-ships-no-stand-in",
      severity: "error",
      comment: "dev/ (the providers' stand-ins, the seed data) serves `npm run dev`, the scripts and the tests: lib/ and app/ never import it.",
      from: { path: "^(lib|app)/|^middleware\\.ts$|^instrumentation\\.ts$" },
      to: { path: "^dev/" },
    },
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle (static or dynamic) in lib/: one module of the circle should sit below the others.",
      from: { path: "^lib/" },
      to: { circular: true },
    },
    {
      name: "kernel-at-the-bottom",
      severity: "error",
      comment: "lib/kernel (errors, shared schemas, logging, the request scope, cursors, pages) imports only itself and lib/env.ts.",
      from: { path: "^lib/kernel/" },
      to: { path: "^lib/", pathNot: "^lib/kernel/|^lib/env\\.ts$" },
    },
    {
      name: "infrastructure-knows-no-pipeline-or-domain",
      severity: "error",
      comment: "lib/db, lib/redis and lib/storage import only the kernel, env, time, ports, the generated client and each other.",
      from: { path: "^lib/(db|redis|storage)/" },
      to: { path: "^lib/", pathNot: "^lib/(kernel|db|redis|storage|generated)/|^lib/(env|time|ports)\\.ts$" },
    },
    {
      name: "auth-below-the-pipeline",
      severity: "error",
      comment: "lib/auth (tokens, staff sessions, the identity provider) sits on the infrastructure, below lib/http and the domains.",
      from: { path: "^lib/auth/" },
      to: { path: "^lib/", pathNot: "^lib/(kernel|db|redis|storage|auth|generated)/|^lib/(env|time|ports)\\.ts$" },
    },
    {
      name: "pipeline-knows-no-domain",
      severity: "error",
      comment: "lib/http is the pipeline only: it imports the layers below it, never a domain module.",
      from: { path: "^lib/http/" },
      to: { path: "^lib/", pathNot: BASE },
    },
    {
      name: "tiers-import-downward",
      severity: "error",
      comment: "lib/core imports no feature or operation; lib/features imports no operation (docs/decisions/0069-domains-in-tiers.md).",
      from: { path: "^lib/core/" },
      to: { path: "^lib/(features|operations)/" },
    },
    {
      name: "features-below-operations",
      severity: "error",
      comment: "lib/features imports no module of lib/operations, which looks across the features.",
      from: { path: "^lib/features/" },
      to: { path: "^lib/operations/" },
    },
    {
      name: "modules-meet-at-their-public-face",
      severity: "error",
      comment:
        "Another module is reached only through its public face (the module inside another, rep/leaderboard, has its own): its service.ts (what it does, re-exporting what it offers from its other files), schemas.ts (shapes) and errors.ts (codes). Its queries, writes and other files are its own (docs/decisions/0070-modules-meet-at-their-face-and-sql-lives-in-data-files.md).",
      from: { path: "^lib/(core|features|operations)/([^/]+)/" },
      to: {
        path: "^lib/(core|features|operations)/",
        pathNot: ["^lib/(core|features|operations)/$2/", "^lib/(core|features|operations)/[^/]+/(leaderboard/)?(service|schemas|errors)\\.ts$"],
      },
    },
    {
      name: "no-module-circle",
      severity: "error",
      comment:
        "Two domain modules reach each other through a chain of imports, though no file circle closes: one of them should sit below the other (move what the lower one needs down, or the orchestration up).",
      scope: "folder",
      from: { path: "^lib/(core|features|operations)/[^/]+$" },
      to: { path: "^lib/(core|features|operations)/[^/]+$", circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^lib/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
