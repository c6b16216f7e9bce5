// Generated from src/core/webhooks/signature.ts by `npm run schema:write`: do not edit.

// src/core/webhooks/signature.ts
import { createHmac, timingSafeEqual } from "node:crypto";
var DEFAULT_TOLERANCE_SECONDS = 300;
function signPayload(secret, t, rawBody) {
  return createHmac("sha256", secret).update(`${t}.`).update(rawBody).digest("hex");
}
function parseHeader(header) {
  let t = null;
  const v1 = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (t !== null || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === "v1") {
      v1.push(value.toLowerCase());
    }
  }
  return t === null ? null : { t, v1 };
}
function sameDigest(expectedHex, givenHex) {
  if (!/^[0-9a-f]{64}$/.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, "hex"), Buffer.from(givenHex, "hex"));
}
function verifySignature(input) {
  if (input.secrets.length === 0 || input.secrets.some((s) => typeof s !== "string" || s.trim() === "")) {
    throw new TypeError("verifySignature: secrets must be the webhook secrets (non-empty strings); is the secret configured?");
  }
  if (Array.isArray(input.header) && input.header.length > 1) return { ok: false, reason: "malformed_header" };
  const header = Array.isArray(input.header) ? input.header[0] : input.header;
  if (!header) return { ok: false, reason: "missing_header" };
  const parsed = parseHeader(header);
  if (!parsed || parsed.v1.length === 0) return { ok: false, reason: "malformed_header" };
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((input.now ?? /* @__PURE__ */ new Date()).getTime() / 1e3);
  if (nowSeconds - parsed.t > tolerance) return { ok: false, reason: "timestamp_too_old" };
  if (parsed.t - nowSeconds > tolerance) return { ok: false, reason: "timestamp_in_future" };
  let matched = false;
  for (const secret of input.secrets) {
    const expected = signPayload(secret, parsed.t, input.rawBody);
    for (const given of parsed.v1) if (sameDigest(expected, given)) matched = true;
  }
  return matched ? { ok: true, t: parsed.t } : { ok: false, reason: "no_matching_signature" };
}
export {
  signPayload,
  verifySignature
};
