// Types of scripts/routes.mjs (plain JavaScript, so that the build runs it with node alone) for the contract test.
export const REGISTRY_FILE: string;
export const NOT_OPERATIONS: string[];
export function routeFiles(root?: string): { path: string; file: string }[];
export function registrySource(root?: string, previous?: string | null): string;
export function readRegistry(root?: string): string | null;
