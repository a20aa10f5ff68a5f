// The step that shows a subagent in the workbench: dsh-acp's explore task
// (scenario-subagent.jsonl: the parent calls task, the child reads
// greet.sh and answers) as the child's block inside the task's card, done
// and folded, with the child's read card and its answer inside.
import { UI_TIMEOUT } from "./workbench.mjs";

/** The prompt that starts the task. */
export const SUBAGENT_PROMPT = "Ask a subagent what greet.sh prints";

/**
 * Sends SUBAGENT_PROMPT and checks the task's card holds the child's
 * block: titled with the task's description, done, folded once it
 * ended; opened, it shows the child's read of greet.sh and its answer;
 * the parent's answer follows.
 * @param {import("playwright-core").FrameLocator} chat the chat view
 * @returns {Promise<void>}
 */
export async function showSubagent(chat) {
  /** @param {string} id */
  const byTestId = (id) => chat.locator(`[data-testid="${id}"]`);
  await byTestId("chat-input").fill(SUBAGENT_PROMPT);
  await byTestId("chat-input").press("Enter");
  await byTestId("message-agent").filter({ hasText: "The subagent found it" }).waitFor({ timeout: UI_TIMEOUT });
  const block = chat.locator('[data-testid="tool-card"][data-tool-call-id="t1"] [data-testid="subagent"]');
  await block.and(chat.locator('[data-state="done"]')).waitFor({ timeout: UI_TIMEOUT });
  const title = await block.locator('[data-testid="subagent-title"]').innerText();
  if (title !== "find the greeting") throw new Error(`the child's block is titled ${JSON.stringify(title)}`);
  if (await block.evaluate((d) => d instanceof HTMLDetailsElement && d.open)) throw new Error("the ended child's block is still open");
  if (await block.locator('[data-testid="subagent-stop"]').isVisible()) throw new Error("the ended child still offers Stop");
  await block.locator("summary").click();
  await block.locator('[data-testid="tool-card"][data-kind="read"]', { hasText: "greet.sh" }).waitFor({ timeout: UI_TIMEOUT });
  await block.locator('[data-testid="message-agent"]', { hasText: "prints the greeting from the e2e workspace" }).waitFor({ timeout: UI_TIMEOUT });
}
