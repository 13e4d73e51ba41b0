import { createHash } from "node:crypto";

// The NFT mint provider: where the mint worker hands a mint. Production plugs a chain provider (an HTTP API such as a
// custodial minting service) in behind this interface; the repo ships the fixture provider, which mints nothing on a
// chain but behaves like one: the same mint id always gets the same token (the provider's idempotency key, so a
// retried or reclaimed mint never makes a second token), and addresses chosen by tests fail.

export interface MintRequest {
  /** The mint's id: the provider's idempotency key. */
  mintId: string;
  collectibleId: string;
  to: string;
  /** 1 on the first try. */
  attempt: number;
  metadata: { name: string; imageUrl: string | null; serial: number; cardId: string };
}

export interface MintResult {
  txHash: string;
  tokenId: string;
}

export interface MintProvider {
  readonly name: string;
  /** Mints, or throws a MintError (retryable or not). */
  mint(req: MintRequest): Promise<MintResult>;
}

export class MintError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** Addresses starting 0x00000000fa11 fail their first two attempts; 0x00000000dead always fail (retryably). */
export const fixtureProvider: MintProvider = {
  name: "fixture",
  async mint(req) {
    const to = req.to.toLowerCase();
    if (to.startsWith("0x00000000dead")) throw new MintError("fixture: the chain refused the transaction", true);
    if (to.startsWith("0x00000000fa11") && req.attempt <= 2) throw new MintError(`fixture: timeout on attempt ${req.attempt}`, true);
    const h = createHash("sha256").update(`mint:${req.mintId}`).digest("hex");
    return { txHash: `0x${h}`, tokenId: BigInt(`0x${h.slice(0, 15)}`).toString() };
  },
};

export const mintProvider = (): MintProvider => fixtureProvider;
