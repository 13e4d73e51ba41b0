import { randomBytes } from "node:crypto";
import type http from "node:http";
import Stripe from "stripe";
import { sendJson, serveStandIn } from "./http";

// A local stand-in for the part of Stripe that web top-ups use, so a checkout can be walked end to end on a laptop
// (`npm run dev` starts it when STRIPE_SECRET_KEY is unset) and tested without the network (tests/setup/server-env/
// payments.ts). The service talks to it with the official client (STRIPE_API_URL); the stand-in signs its events with
// the library's own test signer and POSTs them to the registered webhook endpoint, as Stripe does.
//  - POST /v1/checkout/sessions (form-encoded, as the library sends it; Idempotency-Key honoured), GET /v1/checkout/sessions/:id
//  - GET /checkout/:id: the "hosted" checkout page, a Pay and a Cancel button; POST /checkout/:id/pay pays and sends
//    checkout.session.completed (JSON `{ deliver: false }`: answers the signed event without sending it),
//    POST /checkout/:id/expire sends checkout.session.expired
//  - control: POST /__control/endpoint { url } (the webhook endpoint), POST /__control/refund and /__control/dispute
//    { paymentIntent, amount?, deliver? } (charge.refunded with the cumulative amount, charge.dispute.created),
//    POST /__control/dispute-close { paymentIntent, status: won | lost | warning_closed, deliver? } (charge.dispute.closed),
//    POST /__control/fail { on } (session creation answers 500), GET /__control/sessions

interface Session {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string | null;
  cancel_url: string | null;
  url: string | null;
  created: number;
  livemode: false;
  productName: string;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  webhookSecret: string;
  setEndpoint(url: string): void;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_standin_${randomBytes(12).toString("hex")}`;

export async function startStripeStandIn(o: { secretKey?: string; webhookSecret?: string; endpoint?: string; port?: number } = {}): Promise<StripeStandIn> {
  const secretKey = o.secretKey ?? `sk_test_standin_${randomBytes(8).toString("hex")}`;
  const webhookSecret = o.webhookSecret ?? `whsec_standin_${randomBytes(16).toString("hex")}`;
  let endpoint = o.endpoint;
  let failing = false;
  const sessions = new Map<string, Session>();
  const byIdempotencyKey = new Map<string, string>();
  const refunded = new Map<string, number>();
  const disputed = new Set<string>();
  let base = "";

  const json = sendJson;
  const stripeError = (res: http.ServerResponse, status: number, message: string) =>
    json(res, status, { error: { type: status === 401 ? "invalid_request_error" : "api_error", message } });
  const html = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html><head><meta charset="utf-8"><title>Stripe stand-in</title></head><body style="font-family:sans-serif;max-width:32rem;margin:3rem auto">${body}</body></html>`,
    );
  };
  const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /** Signs an event as Stripe does and, when asked and an endpoint is registered, POSTs it there. */
  async function emit(type: string, object: unknown, deliver: boolean) {
    const event = {
      id: id("evt"),
      object: "event",
      type,
      api_version: "2025-01-01",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    };
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    let delivery: { status: number; body: unknown } | null = null;
    if (deliver && endpoint) {
      const res = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json", "Stripe-Signature": signature }, body: payload });
      const text = await res.text();
      delivery = { status: res.status, body: text ? JSON.parse(text) : null };
    }
    return { event, payload, signature, delivery };
  }

  const publicSession = (s: Session) => {
    const { productName: _name, ...rest } = s;
    return rest;
  };

  const server = await serveStandIn(o.port, async (req, res, raw) => {
    const form = new URLSearchParams((req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded") ? raw : "");
    let body: Record<string, unknown> = {};
    if ((req.headers["content-type"] ?? "").includes("application/json") && raw) body = JSON.parse(raw) as Record<string, unknown>;
    const wantsJson = (req.headers.accept ?? "").includes("application/json") || (req.headers["content-type"] ?? "").includes("application/json");
    const path = new URL(req.url ?? "/", "http://standin").pathname;
    let m: RegExpExecArray | null;
    if (path.startsWith("/v1/")) {
      if (req.headers.authorization !== `Bearer ${secretKey}`) return stripeError(res, 401, "Invalid API Key provided.");
      if (req.method === "POST" && path === "/v1/checkout/sessions") {
        if (failing) return stripeError(res, 500, "The stand-in was told to fail.");
        const key = req.headers["idempotency-key"];
        const known = typeof key === "string" ? byIdempotencyKey.get(key) : undefined;
        if (known) return json(res, 200, publicSession(sessions.get(known)!));
        const metadata: Record<string, string> = {};
        for (const [k, v] of form) if ((m = /^metadata\[(.+)\]$/.exec(k))) metadata[m[1]!] = v;
        const session: Session = {
          id: id("cs_test"),
          object: "checkout.session",
          mode: form.get("mode") ?? "payment",
          status: "open",
          payment_status: "unpaid",
          payment_intent: null,
          amount_total: Number(form.get("line_items[0][price_data][unit_amount]") ?? 0) * Number(form.get("line_items[0][quantity]") ?? 1),
          currency: form.get("line_items[0][price_data][currency]") ?? "usd",
          client_reference_id: form.get("client_reference_id"),
          metadata,
          success_url: form.get("success_url"),
          cancel_url: form.get("cancel_url"),
          url: null,
          created: Math.floor(Date.now() / 1000),
          livemode: false,
          productName: form.get("line_items[0][price_data][product_data][name]") ?? "Coins",
        };
        session.url = `${base}/checkout/${session.id}`;
        sessions.set(session.id, session);
        if (typeof key === "string") byIdempotencyKey.set(key, session.id);
        return json(res, 200, publicSession(session));
      }
      if (req.method === "GET" && path === "/v1/charges") {
        // The paid sessions' charges (one page: the stand-in's few), newest first, as the reconciliation lists them.
        const gte = Number(new URL(req.url ?? "/", "http://standin").searchParams.get("created[gte]") ?? 0);
        const data = [...sessions.values()]
          .filter((x) => x.payment_intent && x.created >= gte)
          .reverse()
          .map((x) => ({
            id: `ch_${x.payment_intent}`,
            object: "charge",
            payment_intent: x.payment_intent,
            amount: x.amount_total,
            amount_refunded: refunded.get(x.payment_intent!) ?? 0,
            disputed: disputed.has(x.payment_intent!),
            paid: true,
            status: "succeeded",
            currency: x.currency,
            created: x.created,
          }));
        return json(res, 200, { object: "list", data, has_more: false, url: "/v1/charges" });
      }
      if (req.method === "GET" && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path))) {
        const s = sessions.get(m[1]!);
        return s ? json(res, 200, publicSession(s)) : stripeError(res, 404, "No such checkout.session");
      }
      return stripeError(res, 404, `The stand-in does not serve ${req.method} ${path}.`);
    }
    if ((m = /^\/checkout\/([^/]+)(\/pay|\/expire)?$/.exec(path))) {
      const s = sessions.get(m[1]!);
      if (!s) return wantsJson ? json(res, 404, { error: "no such session" }) : html(res, 404, "<p>No such checkout.</p>");
      if (req.method === "GET" && !m[2]) {
        const price = `${(s.amount_total / 100).toFixed(2)} ${s.currency.toUpperCase()}`;
        return html(
          res,
          200,
          `<h1>Stripe stand-in checkout</h1><p>${escape(s.productName)}: <strong>${escape(price)}</strong></p><p>State: ${s.status}</p>` +
            (s.status === "open"
              ? `<form method="post" action="/checkout/${s.id}/pay"><button type="submit">Pay ${escape(price)}</button></form>` +
                `<form method="post" action="/checkout/${s.id}/expire"><button type="submit">Cancel (expire the session)</button></form>`
              : ""),
        );
      }
      if (req.method !== "POST") return json(res, 405, { error: "method" });
      if (s.status !== "open") return wantsJson ? json(res, 409, { error: `session is ${s.status}` }) : html(res, 409, `<p>This checkout is ${s.status}.</p>`);
      const deliver = body.deliver !== false;
      let sent;
      if (m[2] === "/pay") {
        s.status = "complete";
        s.payment_status = "paid";
        s.payment_intent = id("pi");
        sent = await emit("checkout.session.completed", publicSession(s), deliver);
      } else {
        s.status = "expired";
        sent = await emit("checkout.session.expired", publicSession(s), deliver);
      }
      if (wantsJson) return json(res, 200, sent);
      const back = m[2] === "/pay" ? s.success_url : s.cancel_url;
      return html(
        res,
        200,
        `<h1>${m[2] === "/pay" ? "Paid" : "Cancelled"}</h1><p>Webhook: ${sent.delivery ? `answered ${sent.delivery.status}` : "no endpoint registered"}.</p>` +
          (back ? `<p><a href="${escape(back)}">Back to the app</a></p>` : ""),
      );
    }
    if (path.startsWith("/__control/")) {
      if (req.method === "POST" && path === "/__control/endpoint") {
        endpoint = String(body.url);
        return json(res, 200, { ok: true });
      }
      if (req.method === "POST" && path === "/__control/fail") {
        failing = body.on === true;
        return json(res, 200, { ok: true });
      }
      if (req.method === "GET" && path === "/__control/sessions") return json(res, 200, [...sessions.values()].map(publicSession));
      if (req.method === "POST" && (path === "/__control/refund" || path === "/__control/dispute")) {
        const pi = String(body.paymentIntent);
        const s = [...sessions.values()].find((x) => x.payment_intent === pi);
        const total = s?.amount_total ?? Number(body.amount ?? 0);
        const amount = body.amount === undefined ? total : Number(body.amount);
        const deliver = body.deliver !== false;
        if (path === "/__control/refund") {
          const cumulative = Math.min(total, (refunded.get(pi) ?? 0) + amount);
          refunded.set(pi, cumulative);
          const charge = {
            id: id("ch"),
            object: "charge",
            payment_intent: pi,
            amount: total,
            amount_refunded: cumulative,
            currency: s?.currency ?? "usd",
            refunded: cumulative >= total,
          };
          return json(res, 200, await emit("charge.refunded", charge, deliver));
        }
        disputed.add(pi);
        const dispute = {
          id: id("dp"),
          object: "dispute",
          charge: id("ch"),
          payment_intent: pi,
          amount,
          currency: s?.currency ?? "usd",
          status: "needs_response",
        };
        return json(res, 200, await emit("charge.dispute.created", dispute, deliver));
      }
      if (req.method === "POST" && path === "/__control/dispute-close") {
        const pi = String(body.paymentIntent);
        const s = [...sessions.values()].find((x) => x.payment_intent === pi);
        const dispute = {
          id: id("dp"),
          object: "dispute",
          charge: id("ch"),
          payment_intent: pi,
          amount: Number(body.amount ?? s?.amount_total ?? 0),
          currency: s?.currency ?? "usd",
          status: String(body.status ?? "won"),
        };
        return json(res, 200, await emit("charge.dispute.closed", dispute, body.deliver !== false));
      }
      return json(res, 404, { error: "unknown control" });
    }
    return json(res, 404, { error: "not found" });
  });
  base = server.url;
  return {
    url: base,
    secretKey,
    webhookSecret,
    setEndpoint: (url) => void (endpoint = url),
    close: server.close,
  };
}
