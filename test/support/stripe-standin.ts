import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import type { Clock } from '../../src/core/clock.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/stripe');
function fixture(name: string): Record<string, any> {
  return JSON.parse(readFileSync(path.join(fixtures, name), 'utf8'));
}
const SUBSCRIPTION = fixture('subscription.json');
const INVOICE = fixture('invoice-paid-object.json');
const PORTAL_SESSION = fixture('billing-portal-session.json');
const EVENT = fixture('event-customer-updated.json');

type Obj = Record<string, any>;

/**
 * Where the invoice names its subscription and where a subscription keeps its
 * period: `current` (API 2025-03-31 on: `invoice.parent.subscription_details`,
 * periods on items) or `legacy` (`invoice.subscription`, periods on the subscription).
 */
export type StripeShape = 'current' | 'legacy';

/** One event as Stripe would send it: the JSON body, signed when delivered. */
export interface StandinEvent {
  id: string;
  type: string;
  payload: string;
}

export interface StripeStandinOptions {
  clock: Clock;
  webhookSecret: string;
  /** Price ids by plan, as configured in STRIPE_PRICE_*. */
  prices: Record<'plus' | 'pro' | 'business', string>;
  /** Where events go: the Podtext under test. */
  deliver?: (body: string, signature: string) => Promise<Response>;
}

const clone = <T>(v: T): T => structuredClone(v);

/**
 * The end of a monthly period starting at `start`, as Stripe bills it: the
 * anchor's day of the month, or the month's last day when it is shorter, so a
 * period anchored on the 31st runs Jan 31, Feb 28, Mar 31.
 */
function monthAfter(start: Date, anchor: Date): Date {
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + 1;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(anchor.getUTCDate(), last), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds()));
}
const newId = (prefix: string) => `${prefix}_test_${randomBytes(8).toString('hex')}`;

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects. */
function parseForm(text: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/[[\]]+/).filter(Boolean);
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else node = node[part] ??= {};
    });
  }
  return out;
}

/**
 * An offline Stripe: the endpoints Podtext's SDK calls (customers, checkout
 * sessions, billing-portal sessions, subscriptions, invoices, prices), served
 * from memory in Stripe's documented shapes (test/fixtures/stripe), plus the
 * moves a customer makes at Stripe (pay, renew, switch plan, cancel), each
 * producing the events Stripe would send, signed with the SDK's
 * `webhooks.generateTestHeaderString`.
 */
export async function startStripeStandin(options: StripeStandinOptions) {
  const sdk = new Stripe('sk_test_standin');
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  /** Plan switches made with `proration_behavior: create_prorations`, billed on the subscription's next invoice. */
  const pendingProrations = new Map<string, Obj[]>();
  const prices = new Map<string, Obj>();
  const amounts = { plus: 900, pro: 2900, business: 9900 };
  for (const [plan, id] of Object.entries(options.prices) as ['plus' | 'pro' | 'business', string][]) {
    prices.set(id, { ...clone(SUBSCRIPTION.items.data[0].price), id, nickname: plan, unit_amount: amounts[plan], unit_amount_decimal: String(amounts[plan]), transform_quantity: null, product: `prod_${plan}` });
  }
  /** Every API call the SDK made: `METHOD /v1/path` and its parsed body. */
  const requests: { method: string; path: string; body: Obj }[] = [];
  const state = { shape: 'current' as StripeShape, down: false, hang: false, deliver: options.deliver };
  const now = () => Math.floor(options.clock.now().getTime() / 1000);

  /** Stripe's answer for an object it does not have; `param` names the request parameter that named it. */
  function missing(res: ServerResponse, what: string, id: string, param = 'id') {
    send(res, param === 'id' ? 404 : 400, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'`, param } });
  }
  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
    res.end(JSON.stringify(body));
  }

  /** A subscription as the API answers it, in the shape of the moment. */
  function view(sub: Obj): Obj {
    const out = clone(sub);
    const item = out.items.data[0];
    if (state.shape === 'legacy') {
      out.current_period_start = item.current_period_start;
      out.current_period_end = item.current_period_end;
      delete item.current_period_start;
      delete item.current_period_end;
    }
    return out;
  }
  function invoiceView(inv: Obj): Obj {
    const out = clone(inv);
    if (state.shape === 'legacy') {
      out.subscription = out.parent?.subscription_details?.subscription ?? null;
      delete out.parent;
    } else {
      delete out.subscription;
    }
    return out;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const body = req.method === 'GET' ? Object.fromEntries(url.searchParams) : parseForm(Buffer.concat(chunks).toString('utf8'));
    requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
    if (!/^Bearer sk_/.test(req.headers.authorization ?? '')) return send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    if (state.down) return send(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    // Stripe not answering at all: the request stays open until the client gives up.
    if (state.hang) return;
    const p = url.pathname.split('/').filter(Boolean);

    if (req.method === 'POST' && url.pathname === '/v1/customers') {
      const customer = { ...clone(EVENT.data.object), id: newId('cus'), email: body.email ?? null, metadata: body.metadata ?? {}, created: now(), description: null, default_source: null, sources: undefined };
      customer.subscriptions = { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/customers/${customer.id}/subscriptions` };
      customers.set(customer.id, customer);
      return send(res, 200, customer);
    }
    if (req.method === 'GET' && p[1] === 'customers' && p[2]) {
      return customers.has(p[2]) ? send(res, 200, customers.get(p[2])) : missing(res, 'customer', p[2]);
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (body.mode !== 'subscription') return send(res, 400, { error: { type: 'invalid_request_error', message: 'mode: expected subscription here', param: 'mode' } });
      if (!customers.has(body.customer)) return missing(res, 'customer', body.customer, 'customer');
      const price = body.line_items?.['0']?.price;
      if (!prices.has(price)) return missing(res, 'price', price, 'line_items[0][price]');
      const id = newId('cs');
      const session = {
        id, object: 'checkout.session', mode: 'subscription', status: 'open', payment_status: 'unpaid', customer: body.customer,
        client_reference_id: body.client_reference_id ?? null, subscription: null, invoice: null, created: now(), livemode: false,
        success_url: String(body.success_url).replace('{CHECKOUT_SESSION_ID}', id), cancel_url: body.cancel_url ?? null,
        url: `https://checkout.stripe.com/c/pay/${id}`, metadata: body.metadata ?? {}, subscription_data: body.subscription_data ?? {},
        line_items: { object: 'list', data: [{ price: prices.get(price), quantity: Number(body.line_items['0'].quantity ?? 1) }] },
      };
      sessions.set(id, session);
      const { line_items: _items, subscription_data: _data, ...answer } = session;
      return send(res, 200, answer);
    }
    if (req.method === 'GET' && url.pathname === '/v1/checkout/sessions') {
      const list = [...sessions.values()].filter((x) => (!body.customer || x.customer === body.customer) && (!body.status || x.status === body.status));
      list.sort((a, b) => b.created - a.created);
      const data = list.slice(0, Number(body.limit ?? 10)).map(({ line_items: _items, subscription_data: _data, ...answer }) => answer);
      return send(res, 200, { object: 'list', data, has_more: list.length > data.length, url: '/v1/checkout/sessions' });
    }
    if (req.method === 'POST' && p[1] === 'checkout' && p[2] === 'sessions' && p[3] && p[4] === 'expire') {
      const x = sessions.get(p[3]);
      if (!x) return missing(res, 'checkout.session', p[3]);
      if (x.status !== 'open') return send(res, 400, { error: { type: 'invalid_request_error', message: `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${x.status}".` } });
      x.status = 'expired';
      const { line_items: _items, subscription_data: _data, ...answer } = x;
      return send(res, 200, answer);
    }
    if (req.method === 'GET' && p[1] === 'checkout' && p[2] === 'sessions' && p[3]) {
      const s = sessions.get(p[3]);
      if (!s) return missing(res, 'checkout.session', p[3]);
      const { line_items: _items, subscription_data: _data, ...answer } = s;
      return send(res, 200, answer);
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      if (!customers.has(body.customer)) return missing(res, 'customer', body.customer);
      const id = newId('bps');
      return send(res, 200, { ...clone(PORTAL_SESSION), id, customer: body.customer, return_url: body.return_url ?? null, livemode: false, created: now(), url: `https://billing.stripe.com/p/session/${id}` });
    }
    if (req.method === 'GET' && url.pathname === '/v1/subscriptions') {
      // Stripe: no status lists every subscription not canceled; `all` lists every one.
      const wanted = (status: string) => (body.status === 'all' ? true : body.status ? status === body.status : status !== 'canceled');
      const list = [...subscriptions.values()].filter((s) => s.customer === body.customer && wanted(s.status));
      list.sort((a, b) => b.created - a.created);
      const data = list.slice(0, Number(body.limit ?? 10)).map(view);
      return send(res, 200, { object: 'list', data, has_more: list.length > data.length, url: '/v1/subscriptions' });
    }
    if (req.method === 'GET' && p[1] === 'subscriptions' && p[2]) {
      return subscriptions.has(p[2]) ? send(res, 200, view(subscriptions.get(p[2])!)) : missing(res, 'subscription', p[2]);
    }
    if (req.method === 'GET' && p[1] === 'invoices' && p[2]) {
      return invoices.has(p[2]) ? send(res, 200, invoiceView(invoices.get(p[2])!)) : missing(res, 'invoice', p[2]);
    }
    if (req.method === 'GET' && p[1] === 'prices' && p[2]) {
      return prices.has(p[2]) ? send(res, 200, prices.get(p[2])) : missing(res, 'price', p[2]);
    }
    return send(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${url.pathname}).` } });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { error: { type: 'api_error', message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  function event(type: string, object: Obj, previous?: Obj): StandinEvent {
    const id = newId('evt');
    const envelope = {
      ...clone(EVENT),
      id, type, created: now(), livemode: false, api_version: '2026-10-28.endive', pending_webhooks: 1,
      request: { id: newId('req'), idempotency_key: null },
      data: previous ? { object: clone(object), previous_attributes: previous } : { object: clone(object) },
    };
    return { id, type, payload: JSON.stringify(envelope, null, 2) };
  }

  function newInvoice(sub: Obj, reason: string, status: 'paid' | 'open'): Obj {
    const item = sub.items.data[0];
    const price = item.price;
    const inv: Obj = {
      ...clone(INVOICE),
      id: newId('in'), customer: sub.customer, status, paid: status === 'paid', billing_reason: reason, created: now(), date: now(),
      amount_due: price.unit_amount, amount_paid: status === 'paid' ? price.unit_amount : 0, subtotal: price.unit_amount, total: price.unit_amount,
      charge: null, payment: null, closed: status === 'paid', webhooks_delivered_at: null,
      period_start: item.current_period_start, period_end: item.current_period_end,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    };
    inv.lines = { ...clone(INVOICE.lines), url: `/v1/invoices/${inv.id}/lines` };
    inv.lines.data[0] = { ...inv.lines.data[0], id: newId('il'), amount: price.unit_amount, plan: null, price, subscription: sub.id, period: { start: item.current_period_start, end: item.current_period_end } };
    delete inv.subscription;
    invoices.set(inv.id, inv);
    sub.latest_invoice = inv.id;
    return inv;
  }

  /** A proration line in the shape of the API version served: a flag on the line (legacy) or on its parent. */
  function prorationLine(subscriptionLine: Obj, l: Obj): Obj {
    const line: Obj = { ...clone(subscriptionLine), id: newId('il'), amount: l.amount, price: l.price, period: l.period, description: l.description };
    if (state.shape === 'legacy') return { ...line, proration: true, type: 'invoiceitem' };
    delete line.proration;
    delete line.type;
    return { ...line, parent: { type: 'invoice_item_details', invoice_item_details: { invoice_item: newId('ii'), proration: true, subscription: subscriptionLine.subscription }, subscription_item_details: null } };
  }

  function sub(id: string): Obj {
    const s = subscriptions.get(id);
    if (!s) throw new Error(`stand-in: no subscription ${id}`);
    return s;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    customers,
    sessions,
    subscriptions,
    invoices,
    /** Which API shape objects are answered in from now on. */
    set shape(shape: StripeShape) {
      state.shape = shape;
    },
    /** While true, every API call answers 500 (Stripe having a bad minute). */
    set down(value: boolean) {
      state.down = value;
    },
    /** While true, every API call is held unanswered (Stripe not answering). */
    set hang(value: boolean) {
      state.hang = value;
    },
    set deliver(fn: (body: string, signature: string) => Promise<Response>) {
      state.deliver = fn;
    },

    /** Signs and sends one event to the Podtext under test, as Stripe does. */
    async send(e: StandinEvent, secret = options.webhookSecret): Promise<Response> {
      const signature = sdk.webhooks.generateTestHeaderString({ payload: e.payload, secret });
      return state.deliver!(e.payload, signature);
    },
    async sendAll(events: StandinEvent[]): Promise<Response[]> {
      const out: Response[] = [];
      for (const e of events) out.push(await this.send(e));
      return out;
    },

    /** The buyer pays on the checkout page: an active subscription and its first paid invoice. */
    completeCheckout(sessionId: string): { subscriptionId: string; invoiceId: string; events: StandinEvent[] } {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`stand-in: no checkout session ${sessionId}`);
      if (session.status !== 'open') throw new Error(`stand-in: checkout session ${sessionId} is ${session.status}; it cannot be paid`);
      const start = options.clock.now();
      const end = monthAfter(start, start);
      const s: Obj = {
        ...clone(SUBSCRIPTION),
        id: newId('sub'), customer: session.customer, status: 'active', created: now(), start_date: now(), billing_cycle_anchor: now(),
        cancel_at: null, cancel_at_period_end: false, canceled_at: null, ended_at: null, trial_start: null, trial_end: null,
        transfer_data: null, pending_update: null, next_pending_invoice_item_invoice: null, pending_invoice_item_interval: null,
        metadata: session.subscription_data?.metadata ?? {}, latest_invoice: null,
      };
      s.items = { ...clone(SUBSCRIPTION.items), url: `/v1/subscription_items?subscription=${s.id}` };
      s.items.data[0] = {
        ...s.items.data[0], id: newId('si'), subscription: s.id, created: now(), price: session.line_items.data[0].price, quantity: 1,
        current_period_start: Math.floor(start.getTime() / 1000), current_period_end: Math.floor(end.getTime() / 1000),
      };
      subscriptions.set(s.id, s);
      const inv = newInvoice(s, 'subscription_create', 'paid');
      Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: s.id, invoice: inv.id });
      const { line_items: _items, subscription_data: _data, ...sessionObject } = session;
      return {
        subscriptionId: s.id,
        invoiceId: inv.id,
        events: [event('customer.subscription.created', view(s)), event('invoice.paid', invoiceView(inv)), event('checkout.session.completed', sessionObject)],
      };
    },

    /** The period ends and Stripe charges the next one (call with the clock at the period's end). */
    renew(subscriptionId: string, paid = true): { invoiceId: string; events: StandinEvent[] } {
      const s = sub(subscriptionId);
      const item = s.items.data[0];
      const start = new Date(item.current_period_end * 1000);
      item.current_period_start = item.current_period_end;
      item.current_period_end = Math.floor(monthAfter(start, new Date(s.billing_cycle_anchor * 1000)).getTime() / 1000);
      const inv = newInvoice(s, 'subscription_cycle', paid ? 'paid' : 'open');
      // Stripe lists a switch's proration lines ahead of the new period's subscription line.
      inv.lines.data.unshift(...(pendingProrations.get(subscriptionId) ?? []).map((l) => prorationLine(inv.lines.data[0], l)));
      pendingProrations.delete(subscriptionId);
      if (!paid) s.status = 'past_due';
      const events = paid
        ? [event('invoice.paid', invoiceView(inv)), event('customer.subscription.updated', view(s), { items: {} })]
        : [event('invoice.payment_failed', invoiceView(inv)), event('customer.subscription.updated', view(s), { status: 'active' })];
      return { invoiceId: inv.id, events };
    },

    /** A late payment of an open invoice succeeds (Smart Retries, or a new card in the portal). */
    payInvoice(invoiceId: string): StandinEvent[] {
      const inv = invoices.get(invoiceId)!;
      Object.assign(inv, { status: 'paid', paid: true, amount_paid: inv.amount_due });
      const s = sub(inv.parent.subscription_details.subscription);
      const previous = s.status;
      s.status = 'active';
      return [event('invoice.paid', invoiceView(inv)), event('customer.subscription.updated', view(s), { status: previous })];
    },

    /**
     * The customer switches plan in the portal. `now` (`always_invoice`): a
     * proration invoice at once. `next_invoice` (`create_prorations`): no
     * invoice now; the unused and remaining time go on the next renewal's invoice.
     */
    changePlan(subscriptionId: string, plan: 'plus' | 'pro' | 'business', prorate: 'now' | 'next_invoice' = 'now'): StandinEvent[] {
      const s = sub(subscriptionId);
      const before = clone(s.items.data[0].price);
      s.items.data[0].price = prices.get(options.prices[plan]);
      const updated = event('customer.subscription.updated', view(s), { items: { data: [{ price: before }] } });
      if (prorate === 'next_invoice') {
        const period = { start: now(), end: s.items.data[0].current_period_end };
        const lines = pendingProrations.get(subscriptionId) ?? [];
        lines.push({ price: before, amount: -before.unit_amount, period, description: `Unused time on ${before.id}` });
        lines.push({ price: clone(s.items.data[0].price), amount: s.items.data[0].price.unit_amount, period, description: `Remaining time on ${plan}` });
        pendingProrations.set(subscriptionId, lines);
        return [updated];
      }
      const proration = newInvoice(s, 'subscription_update', 'paid');
      return [updated, event('invoice.paid', invoiceView(proration))];
    },

    /** The customer cancels in the portal: the plan runs to the period's end. */
    cancelAtPeriodEnd(subscriptionId: string): StandinEvent[] {
      const s = sub(subscriptionId);
      Object.assign(s, { cancel_at_period_end: true, cancel_at: s.items.data[0].current_period_end, canceled_at: now() });
      return [event('customer.subscription.updated', view(s), { cancel_at_period_end: false })];
    },

    /** The subscription ends (period over after a cancellation, or cancelled at once). */
    end(subscriptionId: string): StandinEvent[] {
      const s = sub(subscriptionId);
      Object.assign(s, { status: 'canceled', ended_at: now(), canceled_at: s.canceled_at ?? now() });
      return [event('customer.subscription.deleted', view(s))];
    },

    /** Retries exhausted: Stripe leaves the subscription unpaid. */
    markUnpaid(subscriptionId: string): StandinEvent[] {
      const s = sub(subscriptionId);
      const previous = s.status;
      s.status = 'unpaid';
      return [event('customer.subscription.updated', view(s), { status: previous })];
    },

    /** Any other event type, e.g. one Podtext ignores. */
    event,

    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type StripeStandin = Awaited<ReturnType<typeof startStripeStandin>>;
