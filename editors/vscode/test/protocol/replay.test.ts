// The chat (ChatController on AgentClient) against the real dsh-acp with a
// scripted model: a prompt's images, sent live, come back on load as the
// user's image chunks after the user's words, a large one whole.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import type { ToWebview } from "../../src/chat/messages";
import type { ChatController } from "../../src/session/controller";
import { dshAcpRuns } from "../fakes/dshAcp";

describe("protocol: a replay against dsh-acp", () => {
  const runs = dshAcpRuns("replay");
  const chat = (script: readonly unknown[], posted: ToWebview[]): ChatController => runs.chat(script, { post: (m) => posted.push(m) });

  it("replays the images the user sent, whole, after the user's words", async () => {
    const small = { mimeType: "image/png", data: Buffer.from("\x89PNG\r\n\x1a\n", "latin1").toString("base64") };
    const large = { mimeType: "image/jpeg", data: Buffer.from("JPEG pixels ".repeat(200_000)).toString("base64") }; // 3.2 MB of base64
    const posted: ToWebview[] = [];
    const c = chat([{ text: "Two pictures." }], posted);
    // Sent as another client would: the session's model takes no images (the chat would keep them back), yet the user's message holds them.
    await c.newSession();
    const sent = c.currentSession;
    const client = runs.firstClient();
    assert.ok(sent && client);
    await client.prompt(sent, [{ type: "text", text: "what are these?" }, { type: "image", mimeType: small.mimeType, data: small.data }, { type: "image", mimeType: large.mimeType, data: large.data }]);
    const sessionId = c.currentSession;
    assert.ok(sessionId);
    await runs.stopFirst(); // a session is open in one process at a time
    const replayed: ToWebview[] = [];
    await chat([], replayed).loadSession(sessionId);
    const user = replayed.flatMap((m) => (m.type === "update" && m.update.sessionUpdate === "user_message_chunk" ? [m.update.content] : []));
    assert.deepEqual(
      user.map((b) => (b.type === "text" ? `text ${b.text}` : b.type === "image" ? `image ${b.mimeType} ${b.data.length}` : b.type)),
      ["text what are these?", `image image/png ${small.data.length}`, `image image/jpeg ${large.data.length}`],
    );
    assert.ok(user.some((b) => b.type === "image" && b.data === large.data), "the large image comes back whole");
  });
});
