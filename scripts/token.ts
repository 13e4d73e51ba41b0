// Prints a session token for local use: npm run token -- <userId> [--admin | --role admin|moderator|support|economy] [--ttl SECONDS]
// Signs with CLERK_JWT_PRIVATE_KEY when set, else with the development key pair in .dev-keys/
// (the one `npm run dev` verifies with when CLERK_JWT_KEY is unset).
import { ensureDevKeyPair } from "../lib/auth/keys";
import { signSessionToken } from "../lib/auth/sign";

const args = process.argv.slice(2);
const sub = args.find((a) => !a.startsWith("--"));
if (!sub) {
  console.error("usage: npm run token -- <userId> [--admin | --role admin|moderator|support|economy] [--ttl SECONDS]");
  process.exit(2);
}
const ttlIndex = args.indexOf("--ttl");
const ttlSeconds = ttlIndex >= 0 ? Number(args[ttlIndex + 1]) : 3600;
const roleIndex = args.indexOf("--role");
const role = roleIndex >= 0 ? args[roleIndex + 1] : undefined;
const privateKey = process.env.CLERK_JWT_PRIVATE_KEY?.replace(/\\n/g, "\n") ?? ensureDevKeyPair().privateKey;
console.log(signSessionToken(privateKey, sub, { admin: args.includes("--admin"), role, ttlSeconds }));
