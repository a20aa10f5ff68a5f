import type { ToWebview } from "../../src/chat/messages";
import { Follower } from "../../src/follow";
import { ReviewList } from "../../src/review/reviewList";
import { restoreFile } from "../../src/session/files";
import { ToolCallStore } from "../../src/session/toolCalls";
import { UpdateRouter } from "../../src/session/updates";
import { UsageStatus } from "../../src/status/usage";
import { CommandTerminals } from "../../src/terminal/terminals";

/** An update router posting to posted, with its own call store (calls), following nothing; replaying as told. */
export function routerFor(posted: ToWebview[], replaying: boolean, calls = new ToolCallStore()): UpdateRouter {
  return new UpdateRouter({
    post: (m) => posted.push(m),
    calls,
    review: new ReviewList(restoreFile),
    showReview: () => undefined,
    terminals: new CommandTerminals(),
    follower: new Follower(() => false),
    usage: new UsageStatus(),
    replaying: () => replaying,
  });
}
