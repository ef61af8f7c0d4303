// The community's event stream (GET /v1/events), read with fetch() so that the Authorization
// header can be sent; the Server-Sent Events format is parsed here. It reconnects after the
// server's retry: with Last-Event-ID, so nothing is missed (the server keeps 24 h).
import { lang } from "./i18n.js";
import { session } from "./api.js";

export function openStream(query, { onEvent, onReset, onState = () => {}, key = session.key }) {
  let lastId = null;
  let retryMs = 3000;
  let closed = false;
  let controller = null;

  async function connect() {
    controller = new AbortController();
    const url = new URL("/v1/events", location.origin);
    for (const [name, value] of Object.entries(query)) if (value) url.searchParams.set(name, value);
    const headers = { Accept: "text/event-stream", "Accept-Language": lang() };
    if (session.token) url.searchParams.set("token", session.token);
    else if (key) headers.Authorization = `Bearer ${key}`;
    if (lastId) headers["Last-Event-ID"] = lastId;
    onState("connecting");
    const answer = await fetch(url, { headers, signal: controller.signal });
    if (!answer.ok || !answer.body) throw new Error(`HTTP ${answer.status}`);
    onState("live");
    const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let message = { data: [] };
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let cut;
      while ((cut = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + (buffer.startsWith("\r\n", cut) ? 2 : 1));
        if (line === "") {
          dispatch(message);
          message = { data: [] };
        } else if (!line.startsWith(":")) {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const raw = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "data") message.data.push(raw);
          else if (field === "event") message.event = raw;
          else if (field === "id") message.id = raw;
          else if (field === "retry" && /^\d+$/.test(raw)) retryMs = Number(raw);
        }
      }
    }
  }

  function dispatch(message) {
    if (message.id) lastId = message.id;
    if (!message.data.length) return;
    let data;
    try {
      data = JSON.parse(message.data.join("\n"));
    } catch {
      return;
    }
    const type = message.event || "message";
    if (type === "stream.reset") onReset && onReset(data);
    else if (!type.startsWith("stream.")) onEvent(data, message.id);
  }

  (async () => {
    while (!closed) {
      try {
        await connect();
      } catch (err) {
        if (closed || err.name === "AbortError") return;
      }
      if (closed) return;
      onState("retrying");
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  })();

  return {
    close() {
      closed = true;
      if (controller) controller.abort();
    },
  };
}
