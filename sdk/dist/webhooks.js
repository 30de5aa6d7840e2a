const SIGNATURE_MEMBER = /,"signature":"(sha256=[0-9a-f]{64})"\}$/;
const encoder = new TextEncoder();
function header(headers, name) {
    if (typeof headers.get === "function")
        return headers.get(name) ?? undefined;
    for (const [k, v] of Object.entries(headers)) {
        if (k.toLowerCase() === name)
            return Array.isArray(v) ? v[0] : v;
    }
    return undefined;
}
function base64ToBytes(b64) {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++)
        out[i] = bin.charCodeAt(i);
    return out;
}
async function hmac(key, message) {
    const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", k, encoder.encode(message)));
}
const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const toBase64 = (b) => btoa(String.fromCharCode(...b));
/** Compares without stopping at the first difference. */
function safeEqual(a, b) {
    if (a.length !== b.length)
        return false;
    let diff = 0;
    for (let i = 0; i < a.length; i++)
        diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return diff === 0;
}
/** The key bytes of a Standard Webhooks secret (`whsec_` + base64); null when it is not base64. */
function standardKey(secret) {
    try {
        return base64ToBytes(secret.startsWith("whsec_") ? secret.slice(6) : secret);
    }
    catch {
        return null;
    }
}
/**
 * Verifies a delivery. `rawBody` is the body exactly as received (read it as text before parsing).
 * `secrets` is the account's webhook secret, or a list of them while rotating. Returns the parsed
 * payload when a signature verifies and `webhook-timestamp` is within the tolerance, else null.
 */
export async function verifyWebhook(rawBody, headers, secrets, { toleranceSeconds = 300, now } = {}) {
    const list = (typeof secrets === "string" ? [secrets] : [...secrets]).filter((s) => s.length > 0);
    const ts = header(headers, "webhook-timestamp");
    if (list.length === 0 || !ts || !/^\d{1,12}$/.test(ts))
        return null;
    const nowMs = now === undefined ? Date.now() : typeof now === "number" ? now : now.getTime();
    if (Math.abs(nowMs / 1000 - Number(ts)) > toleranceSeconds)
        return null;
    const id = header(headers, "webhook-id");
    const standard = header(headers, "webhook-signature");
    if (id && standard) {
        const offered = standard.split(" ").filter((s) => s.startsWith("v1,")).map((s) => s.slice(3));
        for (const secret of list) {
            const key = standardKey(secret);
            if (!key)
                continue;
            const expected = toBase64(await hmac(key, `${id}.${ts}.${rawBody}`));
            if (offered.some((sig) => safeEqual(sig, expected)))
                return parse(rawBody);
        }
    }
    const service = header(headers, "x-service-signature");
    const member = SIGNATURE_MEMBER.exec(rawBody);
    if (service && member && member[1] === service) {
        const content = `${rawBody.slice(0, member.index)}}`;
        for (const secret of list) {
            const expected = `sha256=${toHex(await hmac(encoder.encode(secret), content))}`;
            if (!safeEqual(service, expected))
                continue;
            // `webhook-timestamp` is not covered by this signature (a replayer can write a fresh one):
            // the payload's own, signed `timestamp` must be within the tolerance too.
            const payload = parse(rawBody);
            const signedAt = Date.parse(String(payload?.timestamp));
            return Math.abs(nowMs - signedAt) <= toleranceSeconds * 1000 ? payload : null;
        }
    }
    return null;
}
function parse(rawBody) {
    try {
        return JSON.parse(rawBody);
    }
    catch {
        return null;
    }
}
