// A fake OpenAI-compatible model server on loopback for the end-to-end
// tests: it records every chat request and streams back, for each, the next
// answer a test queued (or a default one), as Chat Completions chunks. An
// answer is a text, or a step {text?, tool_calls?: [{id, name, arguments}],
// wait?: Promise} whose tool calls are streamed as the API streams them, once
// wait (when given) has settled. A conversation can have answers of its
// own (answerFor): a subagent's requests open with its prompt, so each
// child is answered by its prompt whatever order the children ask in.

import http from "node:http";

/** The text of a request's first user message: the prompt its conversation opened with. */
export function firstPrompt(parsed) {
  const first = (parsed.messages ?? []).find((m) => m.role === "user");
  if (!first) return "";
  if (typeof first.content === "string") return first.content;
  return (first.content ?? []).map((p) => p.text ?? "").join("");
}

/**
 * Starts the server. Returns {baseURL, requests, answer(step),
 * answerFor(prompt, step), onRequest(fn), close()}: requests holds every
 * /chat/completions body (parsed), in order, and bodies every body as the
 * raw text that reached the server. answerFor queues an answer for the
 * conversation whose first user message is prompt (they are taken before
 * the shared queue); onRequest(fn) calls fn(parsed) for each request as it
 * arrives.
 */
export async function startFakeModel({ models = ["fake-model"] } = {}) {
  const requests = [];
  const bodies = [];
  const answers = [];
  const routed = new Map();
  const listeners = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => {
      body += d;
    });
    req.on("end", () => {
      if (req.method === "GET" && req.url.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model", owned_by: "test" })) }));
        return;
      }
      if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const parsed = JSON.parse(body);
      requests.push(parsed);
      bodies.push(body);
      for (const fn of listeners) fn(parsed);
      const own = routed.get(firstPrompt(parsed));
      const next = (own?.length ? own.shift() : answers.shift()) ?? `answer ${requests.length}`;
      const step = typeof next === "string" ? { text: next } : next;
      if (step.wait) {
        // Held until the test settles step.wait (a Promise); a request the
        // agent abandons meanwhile (a cancel) is answered by nobody.
        step.wait.then(() => {
          if (!res.destroyed) stream(res, parsed, step);
        });
        return;
      }
      stream(res, parsed, step);
    });
  });
  /** Streams step as the answer to the request parsed. */
  function stream(res, parsed, step) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (delta, finish, usage) =>
      `data: ${JSON.stringify({
        id: "chatcmpl-fake",
        object: "chat.completion.chunk",
        created: 0,
        model: parsed.model,
        choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }],
        ...(usage ? { usage } : {}),
      })}\n\n`;
    if (step.text) for (const w of step.text.split(/(?<= )/)) res.write(chunk({ content: w }, null));
    const calls = step.tool_calls ?? [];
    calls.forEach((c, index) => {
      const args = typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments);
      res.write(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: args } }] }, null));
    });
    res.write(chunk({}, calls.length ? "tool_calls" : "stop"));
    res.write(chunk(null, null, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }));
    res.end("data: [DONE]\n\n");
  }
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    bodies,
    answer: (step) => answers.push(step),
    answerFor: (prompt, step) => {
      if (!routed.has(prompt)) routed.set(prompt, []);
      routed.get(prompt).push(step);
    },
    onRequest: (fn) => listeners.push(fn),
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections(); // a held answer nobody released
      }),
  };
}
