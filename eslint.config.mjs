// ESLint 9 flat config. `npm run lint` runs `eslint .` (Next 16 has no `next lint`).
// - eslint-config-next/core-web-vitals: Next's rules (React, hooks, import, jsx-a11y, @next/next) as a flat config.
// - eslint-config-next/typescript: typescript-eslint's `recommended` (syntax-only) for .ts/.tsx. The type-aware
//   presets are left out: on this 2-core machine they take a full type-check per run (about a minute, against
//   ~15 s without) for rules that mostly flag the deliberately untyped JSON bodies in the tests.
// - eslint-config-prettier last: turns off every rule that is Prettier's business (formatting).
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      // Next's level (warn), plus this code base's conventions: a leading underscore marks a parameter an
      // interface requires but the implementation does not use, and `const { key: _key, ...rest } = x` drops a field.
      "@typescript-eslint/no-unused-vars": ["warn", { argsIgnorePattern: "^_", ignoreRestSiblings: true }],
    },
  },
  {
    // The staff console is plain server-rendered HTML with no client components: its links are full-page loads on
    // purpose. <Link> would make them client-side navigations that prefetch the linked console pages (extra gated
    // renders and queries): a change of behaviour. (The rule also sees only literal hrefs, 3 of the console's links.)
    files: ["app/admin/**"],
    rules: { "@next/next/no-html-link-for-pages": "off" },
  },
  {
    // The domain layer never depends on the route files: the OpenAPI documents get the route registry
    // (app/api/routes.generated.ts) as an argument from the routes that serve them. The direction inside lib/ (the
    // kernel at the bottom, then the infrastructure, auth, the pipeline, the domains) and its import circles are
    // dependency-cruiser's (.dependency-cruiser.cjs), the second half of `npm run lint`.
    files: ["lib/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["@/app/*", "**/app/*"], message: "lib/ never imports app/." }] }],
    },
  },
  {
    // The data-access rule (the table at the top of lib/db/client.ts, docs/decisions/0070-sql-in-data-files.md): in a
    // domain module, raw SQL lives only in its data files (queries.ts, writes.ts, <part>-queries.ts, <part>-writes.ts),
    // as typed functions the module's other files call; Prisma's model calls (plain CRUD) may be anywhere.
    files: ["lib/core/**/*.ts", "lib/features/**/*.ts", "lib/operations/**/*.ts"],
    ignores: ["lib/**/queries.ts", "lib/**/writes.ts", "lib/**/*-queries.ts", "lib/**/*-writes.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "TaggedTemplateExpression[tag.property.name=/^\\$(queryRaw|executeRaw)$/]",
          message: "Raw SQL belongs in the module's data files (queries.ts, writes.ts, <part>-queries.ts): call a typed function there.",
        },
        {
          selector: "CallExpression[callee.property.name=/^\\$(queryRaw|executeRaw)(Unsafe)?$/]",
          message: "Raw SQL belongs in the module's data files (queries.ts, writes.ts, <part>-queries.ts): call a typed function there.",
        },
        {
          selector: "MemberExpression[object.name='Prisma'][property.name=/^(sql|raw|join)$/]",
          message: "SQL fragments belong in the module's data files (queries.ts, writes.ts, <part>-queries.ts).",
        },
      ],
    },
  },
  {
    // No hand-written source file over 500 lines (issue 45): past that a file holds more than one subject; split it
    // by subject (lib/http/route.ts is route-config.ts, authenticate.ts, answers.ts and the composition; the seed data is
    // one file per subject in dev/seed/data/). The generated route registry is not hand-written.
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "dev/**/*.ts", "scripts/**/*.{ts,mjs}", "tests/**", "*.{ts,mjs}"],
    ignores: ["app/api/routes.generated.ts"],
    rules: { "max-lines": ["error", { max: 500 }] },
  },
  {
    // The black-box tests hold the server's JSON responses as `any` on purpose (`Res<T = any>` in tests/helpers.ts
    // and the few local copies of it): a test indexes into a response without a cast per field.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  prettier,
  globalIgnores([
    "lib/generated/**",
    ".next/**",
    ".next-*/**", // NEXT_DIST_DIR builds of parallel checkouts
    "next-env.d.ts",
    "coverage/**",
    ".data/**",
    ".dev-keys/**",
    "test-results/**",
    ".ci/test-results.json",
  ]),
]);
