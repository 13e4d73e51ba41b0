// What a handler returns when plain data is not enough: another status, extra headers, cookies, or a redirect.
// The pipeline turns it into the Response (envelope, request id, security, CORS and rate-limit headers), after
// validating it against what the route declares, like any other answer. Handlers never build a Response, except
// for binary or streaming bodies (a route whose `response` is z.instanceof(Response)).

export interface Cookie {
  name: string;
  value: string;
  path?: string;
  /** Seconds; 0 deletes the cookie. */
  maxAge?: number;
  httpOnly?: boolean;
  sameSite?: "Strict" | "Lax" | "None";
  secure?: boolean;
}

export interface ReplyInit {
  /** A success status the route declares: its `status` (default 200) or one of its `responses`. */
  status?: number;
  headers?: Record<string, string>;
  /** Set-Cookie, each a Cookie or an already serialized value. */
  cookies?: (Cookie | string)[];
}

export class Reply<T = unknown> {
  /** @internal use reply() or redirect() */
  constructor(
    readonly data: T,
    readonly init: ReplyInit,
    /** Set for a redirect (302, no body). */
    readonly location?: string,
  ) {}
}

/** `data` answered with a status, headers or cookies of the handler's choosing; enveloped and validated as usual. */
export const reply = <T>(data: T, init: ReplyInit = {}): Reply<T> => new Reply(data, init);

/** A 302 to `location`, no body; the route must declare `redirect`. */
export const redirect = (location: string, init: Omit<ReplyInit, "status"> = {}): Reply<undefined> => new Reply(undefined, { ...init, status: 302 }, location);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COOKIE_VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;

/** `name=value; Path=…; Max-Age=…; HttpOnly; SameSite=…; Secure` (RFC 6265 syntax, checked). */
export function serializeCookie(c: Cookie): string {
  if (!TOKEN.test(c.name)) throw new Error(`Invalid cookie name ${JSON.stringify(c.name)}`);
  if (!COOKIE_VALUE.test(c.value)) throw new Error(`Invalid value for cookie ${c.name}`);
  let out = `${c.name}=${c.value}`;
  if (c.path !== undefined) out += `; Path=${c.path}`;
  if (c.maxAge !== undefined) out += `; Max-Age=${Math.trunc(c.maxAge)}`;
  if (c.httpOnly) out += "; HttpOnly";
  if (c.sameSite) out += `; SameSite=${c.sameSite}`;
  if (c.secure || c.sameSite === "None") out += "; Secure";
  return out;
}
