// The gateway's public API (/v1), called with the key kept in sessionStorage only.
import { learnServerTime } from "./dom.js";
import { lang } from "./i18n.js";

const KEY = "referee.key";
const SCOPE = "referee.scope";

let keyOfPage = null; // the player view's key, from its link: this page only
let tokenOfPage = null; // or its short-lived read-only stream token (?token=)

export const session = {
  get key() {
    return keyOfPage || sessionStorage.getItem(KEY);
  },
  useKey(key) {
    keyOfPage = key;
  },
  useToken(token) {
    tokenOfPage = token;
  },
  get token() {
    return tokenOfPage;
  },
  get scope() {
    return sessionStorage.getItem(SCOPE) || "frontend";
  },
  get isModerator() {
    return this.scope === "moderator";
  },
  save(key, scope) {
    sessionStorage.setItem(KEY, key);
    sessionStorage.setItem(SCOPE, scope);
  },
  clear() {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(SCOPE);
  },
};

export class ApiError extends Error {
  constructor(status, error) {
    super(error.message || error.code || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || "http_error";
    this.rule = error.rule || null;
    this.details = error.details || {};
  }
  // The field errors of a 422 invalid_request: [{path, message}].
  get fieldErrors() {
    return Array.isArray(this.details.errors) ? this.details.errors : [];
  }
}

// One call: JSON in and out; a non-2xx answer throws ApiError with the error body's fields.
export async function api(method, path, { body, query, headers = {}, key = session.key } = {}) {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, value);
  }
  const init = {
    method,
    headers: { Accept: "application/json", "Accept-Language": lang(), ...headers },
  };
  if (session.token) url.searchParams.set("token", session.token);
  else if (key) init.headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let answer;
  try {
    answer = await fetch(url, init);
  } catch (err) {
    throw new ApiError(0, { code: "network", message: String(err.message || err) });
  }
  learnServerTime(answer.headers.get("Date"));
  const text = await answer.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!answer.ok) {
    throw new ApiError(answer.status, (data && data.error) || { code: `http_${answer.status}` });
  }
  return data;
}

export const get = (path, opts) => api("GET", path, opts);
export const post = (path, body, opts = {}) => api("POST", path, { ...opts, body });

// A fresh Idempotency-Key for one click: a retry of the same click is the same request.
export const idempotency = () => ({ "Idempotency-Key": crypto.randomUUID() });

// --- sign-in ----------------------------------------------------------------------------------
// Which scope a key has: a moderator may create keys, so POST /v1/keys with an empty body is a
// 422 for a moderator (the body is checked after the scope) and a 403 for any other key; it
// creates nothing either way. A key that cannot even read the settings is refused.
export async function signIn(key) {
  await get("/v1/settings", { key });
  let scope = "frontend";
  try {
    await api("POST", "/v1/keys", { key, body: {} });
  } catch (err) {
    if (err.status === 422) scope = "moderator";
    else if (err.status !== 403) throw err;
  }
  session.save(key, scope);
  return scope;
}

// --- lists (GET /v1/characters, /v1/rooms, /v1/keys come with paging; until a server has them,
// the console falls back to what it can see: combats and what this session created) ---------
function itemsOf(page, ...names) {
  for (const name of names) if (Array.isArray(page && page[name])) return page[name];
  return Array.isArray(page) ? page : [];
}

export async function listPage(path, names, query = {}) {
  try {
    const page = await get(path, { query });
    const next = page && (page.next_cursor ?? page.next ?? null);
    return { items: itemsOf(page, ...names), next };
  } catch (err) {
    if ([404, 405].includes(err.status)) return null; // this server has no such list
    throw err;
  }
}

const KNOWN = "referee.known";
export const known = {
  all() {
    try {
      return JSON.parse(sessionStorage.getItem(KNOWN)) || { characters: [], keys: [] };
    } catch {
      return { characters: [], keys: [] };
    }
  },
  add(kind, item) {
    const all = this.all();
    const list = (all[kind] = all[kind] || []);
    const id = typeof item === "string" ? item : item.id || item.key_id;
    if (!list.some((x) => (typeof x === "string" ? x : x.id || x.key_id) === id)) list.push(item);
    sessionStorage.setItem(KNOWN, JSON.stringify(all));
  },
};

// --- the OpenAPI document: the forms are built from its schemas ------------------------------
let schemaDoc = null;
export async function openapi() {
  if (!schemaDoc) schemaDoc = await get("/openapi.json", { key: null });
  return schemaDoc;
}

export function requestSchema(doc, path, method) {
  const op = doc.paths?.[path]?.[method];
  return op?.requestBody?.content?.["application/json"]?.schema || null;
}

export function responseSchema(doc, path, method) {
  const op = doc.paths?.[path]?.[method];
  return op?.responses?.["200"]?.content?.["application/json"]?.schema || null;
}

export function resolve(doc, schema) {
  let s = schema;
  for (let i = 0; s && s.$ref && i < 20; i += 1) {
    s = s.$ref.split("/").slice(1).reduce((node, part) => node?.[part], doc);
  }
  return s || {};
}

// The union members of a discriminated request body: {type value: schema}.
export function unionMembers(doc, schema) {
  const s = resolve(doc, schema);
  const out = {};
  for (const member of s.oneOf || s.anyOf || []) {
    const m = resolve(doc, member);
    const tag = m.properties && (m.properties.type || m.properties.ruleset);
    const value = tag && (tag.const ?? (tag.enum && tag.enum[0]));
    if (value) out[value] = m;
  }
  return out;
}
