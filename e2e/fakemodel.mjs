// A fake OpenAI-compatible model server on loopback for the end-to-end
// tests: it records every chat request and streams back, for each, the next
// answer a test queued (or a default one), as Chat Completions chunks.

import http from "node:http";

/**
 * Starts the server. Returns {baseURL, requests, answer(text), close()}:
 * requests holds every /chat/completions body (parsed), in order.
 */
export async function startFakeModel({ models = ["fake-model"] } = {}) {
  const requests = [];
  const answers = [];
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
      const text = answers.shift() ?? `answer ${requests.length}`;
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
      const words = text.split(/(?<= )/);
      for (const w of words) res.write(chunk({ content: w }, null));
      res.write(chunk({}, "stop"));
      res.write(chunk(null, null, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    answer: (text) => answers.push(text),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
