// Whether a user_message_chunk is of a message the user sent while a
// turn ran (steering): dsh-acp says so in its _meta, {"dsh-acp":
// {"steered": true}}, live and replayed. Pure: the extension and the
// chat view's script both use it.
import type { AgentUpdate } from "../client/unstable";

/** Whether u is a chunk of a steered user message. */
export function steeredChunk(u: AgentUpdate): boolean {
  if (u.sessionUpdate !== "user_message_chunk") return false;
  const own: unknown = u._meta?.["dsh-acp"];
  return own !== null && typeof own === "object" && "steered" in own && own.steered === true;
}
