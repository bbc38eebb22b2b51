// A WebRTC data channel's session description, as a short text for a QR code (issue 24).
//
// A description with all its ICE candidates gathered (no trickle, no ICE server) holds only
// a few things the other side needs: the ICE user fragment and password, the DTLS
// certificate's SHA-256 fingerprint, the DTLS role, and the host candidates (an address,
// or an mDNS name <uuid>.local, and a UDP port). compactSDP keeps those, as
//   "1~<role>~<ufrag>~<pwd>~<fingerprint, base64url>~<candidate>~…"
// (a candidate: "<address>_<port>", an mDNS uuid written as "m" + 22 base64url characters),
// and expandSDP writes a complete description back. Pure: tested with node --test.

const VERSION = "1";
const ROLES = { actpass: "a", active: "c", passive: "p" };
const ROLE_OF = Object.fromEntries(Object.entries(ROLES).map(([k, v]) => [v, k]));
const MAX_CANDIDATES = 8;
const UUID_LOCAL = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;
const ICE_CHARS = /^[A-Za-z0-9+/]{4,256}$/;

const toB64url = (bytes) => {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const fromB64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const bytesOfHex = (h) => Uint8Array.from(h.match(/../g), (x) => parseInt(x, 16));
const hexOf = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
// ICE characters are letters, digits, "+" and "/": written "-" and "_" to be safe in a URL.
const iceOut = (v) => v.replace(/\+/g, "-").replace(/\//g, "_");
const iceIn = (v) => v.replace(/-/g, "+").replace(/_/g, "/");

/** The short text of an SDP description (offer or answer with its candidates), or throws. */
export function compactSDP(sdp) {
  const line = (name) => sdp.match(new RegExp(`^a=${name}:(.*)$`, "m"))?.[1]?.trim();
  const ufrag = line("ice-ufrag");
  const pwd = line("ice-pwd");
  const fingerprint = line("fingerprint");
  const setup = line("setup");
  if (!ufrag || !pwd || !fingerprint || !setup || !ROLES[setup]) throw new Error("incomplete description");
  const fp = fingerprint.match(/^sha-256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})$/i);
  if (!fp) throw new Error("no SHA-256 fingerprint");
  const candidates = [];
  for (const match of sdp.matchAll(/^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host/gim)) {
    const [, address, port] = match;
    const uuid = address.match(UUID_LOCAL);
    const where = uuid ? `m${toB64url(bytesOfHex(uuid.slice(1).join("")))}` : address;
    const text = `${where}_${port}`;
    if (!candidates.includes(text) && candidates.length < MAX_CANDIDATES) candidates.push(text);
  }
  if (!candidates.length) throw new Error("no candidate");
  const fpText = toB64url(bytesOfHex(fp[1].replace(/:/g, "")));
  return [VERSION, ROLES[setup], iceOut(ufrag), iceOut(pwd), fpText, ...candidates].join("~");
}

/** The fields of a short text, checked (it comes from another device), or null. */
export function readCompact(text) {
  if (typeof text !== "string" || text.length > 1500) return null;
  const parts = text.trim().split("~");
  if (parts.length < 6 || parts[0] !== VERSION || !ROLE_OF[parts[1]]) return null;
  const [, role, ufrag, pwd, fp, ...rest] = parts;
  if (!ICE_CHARS.test(iceIn(ufrag)) || !ICE_CHARS.test(iceIn(pwd)) || !/^[A-Za-z0-9_-]{43}$/.test(fp)) return null;
  const candidates = [];
  for (const c of rest.slice(0, MAX_CANDIDATES)) {
    const m = c.match(/^(m[A-Za-z0-9_-]{22}|[0-9.]{7,15}|[0-9a-fA-F:]{2,39})_(\d{1,5})$/);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) return null;
    let address = m[1];
    if (address.startsWith("m") && address.length === 23) {
      const h = hexOf(fromB64url(address.slice(1)));
      address = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}.local`;
    }
    candidates.push({ address, port: Number(m[2]) });
  }
  const fingerprint = hexOf(fromB64url(fp)).toUpperCase().match(/../g).join(":");
  return { setup: ROLE_OF[role], ufrag: iceIn(ufrag), pwd: iceIn(pwd), fingerprint, candidates };
}

/** A complete SDP description (type "offer" or "answer") from a short text, or null. */
export function expandSDP(text) {
  const f = readCompact(text);
  if (!f) return null;
  const session = String(Math.floor(Math.random() * 1e15));
  const lines = [
    "v=0",
    `o=- ${session} 2 IN IP4 127.0.0.1`,
    "s=-",
    "t=0 0",
    "a=group:BUNDLE 0",
    "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    ...f.candidates.map((c, i) => `a=candidate:${i + 1} 1 udp ${2113937151 - i} ${c.address} ${c.port} typ host`),
    "a=end-of-candidates",
    `a=ice-ufrag:${f.ufrag}`,
    `a=ice-pwd:${f.pwd}`,
    `a=fingerprint:sha-256 ${f.fingerprint}`,
    `a=setup:${f.setup}`,
    "a=mid:0",
    "a=sctp-port:5000",
    "a=max-message-size:262144",
  ];
  return `${lines.join("\r\n")}\r\n`;
}
